import { describe, expect, it } from "vitest";
import { jsonResponse, stubFetch } from "../test/render";
import { ApiError, api, csrfToken, unwrap } from "./client";

const ERROR = {
  error: {
    code: "pool_overspent",
    message: "Axis has 2 activation points, not 5",
    fields: { "battalions[0].activation_points_spent": ["Axis has 2 activation points, not 5"] },
    rule: "battle report: stands, pools and supply are changed together",
  },
};

describe("the typed client", () => {
  it("reads the CSRF token from its cookie", () => {
    expect(csrfToken("sessionid=abc; csrftoken=t%2Bk; other=1")).toBe("t+k");
    expect(csrfToken("sessionid=abc")).toBe("");
  });

  it("sends the CSRF token with an unsafe request and not with a safe one", async () => {
    document.cookie = "csrftoken=token-123";
    const seen = stubFetch(
      jsonResponse(200, { authenticated: false, username: null, campaigns: [] }),
      jsonResponse(200, { authenticated: true, username: "umpire", campaigns: [] }),
    );

    await unwrap(api.GET("/api/v1/session/"));
    await unwrap(api.POST("/api/v1/session/", { body: { username: "umpire", password: "umpire" } }));

    expect(seen[0]?.headers.get("X-CSRFToken")).toBeNull();
    expect(seen[1]?.method).toBe("POST");
    expect(seen[1]?.headers.get("X-CSRFToken")).toBe("token-123");
    expect(await seen[1]?.json()).toEqual({ username: "umpire", password: "umpire" });
  });

  it("turns the API's error body into an ApiError with its code, fields and rule", async () => {
    stubFetch(jsonResponse(400, ERROR));

    const failure = await unwrap(api.GET("/api/v1/session/")).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    const error = failure as ApiError;
    expect(error.status).toBe(400);
    expect(error.body.code).toBe("pool_overspent");
    expect(error.body.fields["battalions[0].activation_points_spent"]).toHaveLength(1);
    expect(error.message).toBe("Axis has 2 activation points, not 5");
  });

  it("reports a response without the error shape (a proxy's 502) as an ApiError all the same", async () => {
    stubFetch(new Response("<html>Bad gateway</html>", { status: 502, headers: { "Content-Type": "text/html" } }));

    const failure = await unwrap(api.GET("/api/v1/session/")).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body).toMatchObject({ code: "http_502", fields: {} });
  });
});
