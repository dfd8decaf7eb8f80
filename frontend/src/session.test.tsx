import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { CampaignListPage } from "./pages/CampaignList";
import { createQueryClient, RequireSession } from "./session";
import { jsonResponse, stubFetch } from "./test/render";

const SIGNED_IN = { authenticated: true, username: "axis", campaigns: [] };
const SIGNED_OUT = { authenticated: false, username: null, campaigns: [] };

function renderApp() {
  const queryClient = createQueryClient({ queries: { retry: false } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <Routes>
          <Route path="/login" element={<p>Sign in, please</p>} />
          <Route
            path="/"
            element={
              <RequireSession>
                <CampaignListPage />
              </RequireSession>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("a session that ends while the app is open", () => {
  it("sends the reader to sign in when a call answers 401", async () => {
    const error = { code: "not_authenticated", message: "Authentication credentials were not provided." };
    const seen = stubFetch(
      jsonResponse(200, SIGNED_IN),
      jsonResponse(401, { error: { ...error, fields: {}, rule: null } }),
      jsonResponse(200, SIGNED_OUT),
    );
    renderApp();

    expect(await screen.findByText("Sign in, please")).toBeInTheDocument();
    expect(seen.map((request) => new URL(request.url).pathname)).toEqual([
      "/api/v1/session/",
      "/api/v1/campaigns/",
      "/api/v1/session/",
    ]);
  });

  it("shows a 403 where it happened, still signed in", async () => {
    const error = { code: "permission_denied", message: "Only an umpire of this campaign may change it." };
    const seen = stubFetch(
      jsonResponse(200, SIGNED_IN),
      jsonResponse(403, { error: { ...error, fields: {}, rule: null } }),
    );
    renderApp();

    expect(await screen.findByText(error.message)).toBeInTheDocument();
    expect(seen).toHaveLength(2);
  });
});
