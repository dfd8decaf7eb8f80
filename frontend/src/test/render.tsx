/** Test helpers: the app's providers, and a stub of the browser's fetch (the only boundary mocked). */
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";
import { vi } from "vitest";
import { createQueryClient } from "../session";

export function renderWithProviders(ui: ReactElement) {
  const queryClient = createQueryClient({ queries: { retry: false }, mutations: { retry: false } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** Stubs fetch with one answer per call, in order; returns the requests it saw. */
export function stubFetch(...responses: Response[]): Request[] {
  const seen: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      seen.push(request);
      const response = responses.shift();
      if (!response) throw new Error(`unexpected request ${request.method} ${request.url}`);
      return response;
    }),
  );
  return seen;
}
