import type { ReactNode } from "react";
import { FieldErrors } from "./FieldErrors";

/** A labelled input with the API's errors for it below, read through aria-describedby
 * (the input itself carries `aria-describedby={`${id}-errors`}`). */
export function Field({
  id,
  label,
  errors,
  children,
}: {
  id: string;
  label: string;
  errors?: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldErrors id={`${id}-errors`} messages={errors ?? []} />
    </div>
  );
}

/** A secret the API shows once (a key, a link, a password): in a read-only box to copy. */
export function ShownOnce({ label, value, note }: { label: string; value: string; note: string }) {
  const id = `once-${label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <div className="card shown-once" role="status">
      <label htmlFor={id}>{label}</label>
      <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
      <p className="muted">{note}</p>
    </div>
  );
}
