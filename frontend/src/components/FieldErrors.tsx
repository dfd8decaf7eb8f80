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

/**
 * A form's errors placed where they belong: `errorsFor(path)` hands an input its messages and
 * marks them shown; `<SubmitErrors>` (rendered after the inputs, next to Submit) repeats the
 * refusal and lists whatever no input took, so no message is lost.
 */
export function placedErrors(error: unknown) {
  const fields = fieldErrorsOf(error);
  const shown = new Set<string>();
  return {
    fields,
    errorsFor(...paths: string[]): string[] {
      return paths.flatMap((path) => (shown.add(path), fields[path] ?? []));
    },
    /** Messages of every path under `prefix` (an input holding a list). */
    errorsUnder(prefix: string): string[] {
      return Object.entries(fields)
        .filter(([path]) => path.startsWith(prefix))
        .flatMap(([path, messages]) => (shown.add(path), messages));
    },
    unplaced(): [string, string[]][] {
      return Object.entries(fields).filter(([path]) => !shown.has(path));
    },
  };
}

/** The refusal next to the Submit button: the API's sentence, its rule, and unplaced field errors. */
export function SubmitErrors({ error, unplaced }: { error: unknown; unplaced: [string, string[]][] }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="error submit-errors" role="alert">
      <strong>{message}</strong>
      {error instanceof ApiError && error.body.rule ? <p>Rule: {error.body.rule}</p> : null}
      {unplaced.length ? (
        <ul>
          {unplaced.map(([path, messages]) => (
            <li key={path}>
              {path}: {messages.join(" ")}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
