import type { InputHTMLAttributes } from "react";
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

/** A labelled input with the API's errors for it beside it (and read as its description). */
export function InputField({
  id,
  label,
  messages,
  ...input
}: { id: string; label: string; messages: readonly string[] } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={messages.length > 0} aria-describedby={`${id}-errors`} {...input} />
      <FieldErrors id={`${id}-errors`} messages={messages} />
    </div>
  );
}
