import { ApiError } from "../api/client";

/** The API's field errors of a failed write, by field path ("battalions[0].code"); none for other failures. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  return error instanceof ApiError ? error.body.fields : {};
}

/** An input's errors, read by screen readers through the input's aria-describedby. */
export function FieldErrors({ id, messages }: { id: string; messages: readonly string[] }) {
  return (
    <span id={id} className="field-errors" role={messages.length ? "alert" : undefined}>
      {messages.join(" ")}
    </span>
  );
}
