/** Test helpers: the app's providers, and a stub of the browser's fetch (the only boundary mocked). */
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";
import { vi } from "vitest";
import { queryKeys } from "../api/queryKeys";
import { createQueryClient } from "../session";
import vocabulary from "./vocabulary.json";

export function renderWithProviders(ui: ReactElement) {
  const queryClient = createQueryClient({ queries: { retry: false }, mutations: { retry: false } });
  // The API's vocabulary, read once a session: already there, as after the app's first page.
  queryClient.setQueryData(queryKeys.vocabulary, vocabulary);
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
