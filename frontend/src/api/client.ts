/** The typed API client: every call the app makes goes through `api` (openapi-fetch). */
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type ErrorBody = Schemas["Error"]["error"];

/** A refused or failed request, carrying the API's one error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function csrfToken(cookies: string = document.cookie): string {
  const entry = cookies.split("; ").find((cookie) => cookie.startsWith("csrftoken="));
  return entry ? decodeURIComponent(entry.slice("csrftoken=".length)) : "";
}

// Django checks CSRF on every unsafe request of a session; GET /session/ sets the cookie.
const csrf: Middleware = {
  onRequest({ request }) {
    if (UNSAFE_METHODS.has(request.method)) {
      request.headers.set("X-CSRFToken", csrfToken());
    }
    return request;
  },
};

// JSON answers only: a read that also answers CSV (the statistics) types its data as the JSON.
export const api = createClient<paths, "application/json">({
  baseUrl: globalThis.location?.origin ?? "",
  credentials: "same-origin",
  // Looked up per call, so tests can stub the browser's fetch.
  fetch: (request) => globalThis.fetch(request),
});
api.use(csrf);

function isErrorBody(value: unknown): value is Schemas["Error"] {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === "object" && error !== null && "code" in error && "message" in error;
}

function toApiError(status: number, payload: unknown): ApiError {
  if (isErrorBody(payload)) {
    return new ApiError(status, { ...payload.error, fields: payload.error.fields ?? {} });
  }
  return new ApiError(status, {
    code: `http_${status}`,
    message: `The server answered ${status}.`,
    fields: {},
    rule: null,
  });
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The response's data, or an ApiError with the API's error body. */
export async function unwrap<T>(request: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok) throw toApiError(response.status, error);
  return data as T;
}

/** A fresh Idempotency-Key for one intended write. */
export function idempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
