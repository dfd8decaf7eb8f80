import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { FieldErrors, InputField, fieldErrorsOf } from "./FieldErrors";
import { ErrorNotice } from "./status";

type Roll = Schemas["Roll"];
type Value = string | number | boolean;

/** The values a roll set that a person can type: numbers, words, yes/no (a set-up step's
 * nested result is overridden through its own fields, not here). */
function editable(changes: Roll["changes"]): [string, Value][] {
  return Object.entries(changes ?? {}).filter(
    (entry): entry is [string, Value] => ["string", "number", "boolean"].includes(typeof entry[1]),
  );
}

function parsed(original: Value, text: string): Value {
  if (typeof original === "number") return text.trim() === "" ? Number.NaN : Number(text);
  if (typeof original === "boolean") return text === "true";
  return text;
}

/** The umpire overrides what a roll set, with a reason; the original stays in the log. */
export function RollOverrideForm({ slug, roll, onDone }: { slug: string; roll: Roll; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const fields = editable(roll.changes);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map(([name, value]) => [name, String(value)])),
  );
  const [reason, setReason] = useState("");
  const [key] = useState(idempotencyKey);
  const override = useMutation({
    mutationFn: () => {
      const changes = Object.fromEntries(
        fields
          .filter(([name, value]) => values[name] !== String(value))
          .map(([name, value]) => [name, parsed(value, values[name] ?? "")]),
      );
      return unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/rolls/{id}/override/", {
          params: { path: { campaign_slug: slug, id: roll.id }, header: { "Idempotency-Key": key } },
          body: { changes, reason },
        }),
      );
    },
    onSuccess: () => {
      void queryClient.invalidateQueries();
      onDone?.();
    },
  });
  if (!fields.length) return <p className="muted">This roll set nothing that can be typed over here.</p>;
  const errors = fieldErrorsOf(override.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    override.mutate();
  };
  return (
    <form className="override" aria-label={`Override ${roll.output?.title ?? roll.procedure}`} onSubmit={submit}>
      {fields.map(([name, value]) => {
        const inputId = `${id}-${name}`;
        const messages = errors[`changes.${name}`] ?? [];
        return (
          <div className="field" key={name}>
            <label htmlFor={inputId}>New {name.replaceAll("_", " ")}</label>
            {roll.change_choices?.[name] ? (
              <select
                id={inputId}
                value={values[name]}
                onChange={(e) => setValues({ ...values, [name]: e.target.value })}
              >
                {Object.entries(roll.change_choices[name] ?? {}).map(([code, label]) => (
                  <option key={code} value={code}>
                    {label}
                  </option>
                ))}
              </select>
            ) : typeof value === "boolean" ? (
              <select
                id={inputId}
                value={values[name]}
                onChange={(e) => setValues({ ...values, [name]: e.target.value })}
              >
                <option value="true">yes</option>
                <option value="false">no</option>
              </select>
            ) : (
              <input
                id={inputId}
                type={typeof value === "number" ? "number" : "text"}
                value={values[name]}
                aria-invalid={messages.length > 0}
                aria-describedby={`${inputId}-errors`}
                onChange={(e) => setValues({ ...values, [name]: e.target.value })}
              />
            )}
            <FieldErrors id={`${inputId}-errors`} messages={messages} />
          </div>
        );
      })}
      <InputField
        id={`${id}-reason`}
        label="Reason"
        messages={errors.reason ?? []}
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="submit" disabled={override.isPending}>
        Override
      </button>
      {override.isError ? <ErrorNotice error={override.error} /> : null}
      {override.isSuccess ? <p role="status">Overridden: {override.data.override.line}</p> : null}
    </form>
  );
}
