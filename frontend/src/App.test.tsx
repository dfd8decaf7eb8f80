import { afterEach, describe, expect, it, vi } from "vitest";
import { preloadRoute } from "./App";
import { createQueryClient } from "./session";
import { jsonResponse } from "./test/render";

/** The API paths the app asks for, in order, each answered with an empty object. */
function stubApi(): string[] {
  const paths: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      paths.push(new URL(request.url).pathname);
      return jsonResponse(200, {});
    }),
  );
  return paths;
}

afterEach(() => vi.unstubAllGlobals());

describe("the app opening on an address", () => {
  it("asks for the session, the campaign and the dashboard's answers at once", async () => {
    const paths = stubApi();

    preloadRoute(createQueryClient({ queries: { retry: false } }), { pathname: "/campaigns/malta" });

    await vi.waitFor(() =>
      expect([...paths].sort()).toEqual([
        "/api/v1/campaigns/malta/",
        "/api/v1/campaigns/malta/events/",
        "/api/v1/campaigns/malta/victory/",
        "/api/v1/session/",
      ]),
    );
  });

  it("asks for the session and the campaign alone where the page has no answers to preload", async () => {
    const paths = stubApi();

    preloadRoute(createQueryClient({ queries: { retry: false } }), { pathname: "/campaigns/malta/map" });

    await vi.waitFor(() => expect([...paths].sort()).toEqual(["/api/v1/campaigns/malta/", "/api/v1/session/"]));
  });
});
