import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import type { StandStatus } from "../api/types";
import { useTerms } from "../api/vocabulary";
import { FieldErrors, InputField, fieldErrorsOf } from "./FieldErrors";
import { ErrorNotice } from "./status";

/** The umpire sets a stand's state by hand, with the reason: a correction on the timeline. */
export function StandCorrection({ slug, stand }: { slug: string; stand: Pick<Schemas["Stand"], "id" | "label" | "status"> }) {
  const queryClient = useQueryClient();
  const id = useId();
  const statuses = useTerms("stand_status");
  const [status, setStatus] = useState<StandStatus>(stand.status ?? "ok");
  const [reason, setReason] = useState("");
  const correct = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/stands/{id}/correct/", {
          params: { path: { campaign_slug: slug, id: stand.id }, header: { "Idempotency-Key": idempotencyKey() } },
          body: { status, reason },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  const errors = fieldErrorsOf(correct.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    correct.mutate();
  };
  return (
    <form className="correction" aria-label={`Correct stand ${stand.label}`} onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${id}-status`}>State</label>
        <select
          id={`${id}-status`}
          value={status}
          aria-describedby={`${id}-status-errors`}
          onChange={(e) => setStatus(e.target.value as StandStatus)}
        >
          {statuses.map((term) => (
            <option key={term.value} value={term.value}>
              {term.label}
            </option>
          ))}
        </select>
        <FieldErrors id={`${id}-status-errors`} messages={errors.status ?? []} />
      </div>
      <InputField
        id={`${id}-reason`}
        label="Reason"
        messages={errors.reason ?? []}
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="submit" disabled={correct.isPending}>
        Correct
      </button>
      {correct.isError && !Object.keys(errors).length ? <ErrorNotice error={correct.error} /> : null}
      {correct.isSuccess ? <p role="status">Corrected: {correct.data.label} is {correct.data.status_label.toLowerCase()}.</p> : null}
    </form>
  );
}
