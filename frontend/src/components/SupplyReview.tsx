import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { FieldErrors, SubmitErrors, placedErrors } from "./FieldErrors";
import { QueryView } from "./status";

type Review = Schemas["SupplyReview"];
type Entry = Schemas["SupplyBattalion"];
type Situation = Schemas["MapSupplySituationEnum"];
type Override = { situation: Situation | ""; reason: string };

/** The day's supply proposal (umpires): read by the night's confirmation too, so one query. */
export function useSupplyReview(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.supply(slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/supply/", { params: { path: { campaign_slug: slug } } })),
    enabled,
  });
}

function BattalionSupply({
  entry,
  review,
  override,
  onChange,
  situationErrors,
  reasonErrors,
  editable,
}: {
  entry: Entry;
  review: Review;
  override: Override;
  onChange: (override: Override) => void;
  situationErrors: string[];
  reasonErrors: string[];
  editable: boolean;
}) {
  const id = `supply-${entry.id}`;
  const open = Boolean(override.situation) || situationErrors.length > 0 || reasonErrors.length > 0;
  return (
    <li className="card supply-battalion" aria-label={`Supply of ${entry.code}`}>
      <h4>
        {entry.code} <span className="tag">{entry.applies_label}</span>
      </h4>
      <dl className="facts">
        <dt>Map proposes</dt>
        <dd>
          {entry.proposed_label}: {entry.reason}
        </dd>
        <dt>Line</dt>
        <dd>{entry.line}</dd>
        {entry.reported_label ? (
          <>
            <dt>Reported</dt>
            <dd>
              {entry.reported_label}, after {entry.reported_in}
            </dd>
          </>
        ) : null}
        {entry.override_label ? (
          <>
            <dt>Your override</dt>
            <dd>{entry.override_label}</dd>
          </>
        ) : null}
        <dt>The night applies</dt>
        <dd>
          {entry.applies_label} ({entry.applies_because})
        </dd>
      </dl>
      {editable ? (
        <details open={open}>
          <summary>Override {entry.code}</summary>
          <div className="field">
            <label htmlFor={`${id}-situation`}>Supply situation of {entry.code}</label>
            <select
              id={`${id}-situation`}
              value={override.situation}
              onChange={(e) => onChange({ ...override, situation: e.target.value as Situation | "" })}
              aria-invalid={situationErrors.length > 0}
              aria-describedby={`${id}-situation-errors`}
            >
              <option value="">as the night applies it</option>
              {review.situations.map((situation, index) => (
                <option key={situation} value={situation}>
                  {review.situations_labels[index]}
                </option>
              ))}
            </select>
            <FieldErrors id={`${id}-situation-errors`} messages={situationErrors} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-reason`}>Why {entry.code} is overridden</label>
            <input
              id={`${id}-reason`}
              value={override.reason}
              onChange={(e) => onChange({ ...override, reason: e.target.value })}
              aria-invalid={reasonErrors.length > 0}
              aria-describedby={`${id}-reason-errors`}
            />
            <FieldErrors id={`${id}-reason-errors`} messages={reasonErrors} />
          </div>
        </details>
      ) : null}
    </li>
  );
}

/** The umpire's supply for the day: each battalion's proposal with its traced line, what the day's
 * battle reports said, and what the night will apply; confirm all, overriding any with a reason. */
export function SupplyReviewPanel({ campaign }: { campaign: Schemas["Campaign"] }) {
  const slug = campaign.slug;
  const queryClient = useQueryClient();
  const review = useSupplyReview(slug, true);
  const [overrides, setOverrides] = useState<Record<string, Override>>({});
  const [key, setKey] = useState(idempotencyKey);
  const chosen = (review.data?.battalions ?? []).filter((entry) => overrides[entry.id]?.situation);
  const confirm = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/supply/", {
          params: { path: { campaign_slug: slug }, header: { "Idempotency-Key": key } },
          body: {
            overrides: chosen.map((entry) => ({
              battalion: entry.id,
              situation: overrides[entry.id]?.situation as Situation,
              reason: overrides[entry.id]?.reason ?? "",
            })),
          },
        }),
      ),
    onSuccess: (confirmed) => {
      queryClient.setQueryData(queryKeys.supply(slug), confirmed);
      setOverrides({});
      setKey(idempotencyKey());
      for (const stale of [queryKeys.map(slug), queryKeys.oob(slug), queryKeys.campaign(slug)]) {
        void queryClient.invalidateQueries({ queryKey: stale });
      }
    },
  });
  const placed = placedErrors(confirm.error);
  return (
    <section aria-labelledby="supply-heading">
      <h2 id="supply-heading">Supply of day {campaign.current_day}</h2>
      <QueryView query={review} what="the supply proposal">
        {(data) => {
          const editable = data.actions.includes("confirm");
          const confirmLabel = data.actions_labels[data.actions.indexOf("confirm")] ?? "";
          if (!data.battalions.length) return <p>No battalion on the map: supply is not traced.</p>;
          return (
            <>
              <p role="status">
                {data.confirmed_at
                  ? `Confirmed at ${new Date(data.confirmed_at).toLocaleTimeString()}.`
                  : (data.warning ?? "Not confirmed.")}
              </p>
              {campaign.sides.map((side) => {
                const entries = data.battalions.filter((entry) => entry.side === side.id);
                if (!entries.length) return null;
                return (
                  <section key={side.id} aria-label={`Supply of ${side.name}`}>
                    <h3>{side.name}</h3>
                    <ul className="cards supply-battalions">
                      {entries.map((entry) => {
                        // Placed here, before the refusal below lists what no field took.
                        const index = chosen.indexOf(entry);
                        const errorsFor = (field: string) =>
                          index >= 0 ? placed.errorsFor(`overrides[${index}].${field}`) : [];
                        return (
                          <BattalionSupply
                            key={entry.id}
                            entry={entry}
                            review={data}
                            editable={editable}
                            override={overrides[entry.id] ?? { situation: "", reason: "" }}
                            onChange={(override) => setOverrides({ ...overrides, [entry.id]: override })}
                            situationErrors={errorsFor("situation")}
                            reasonErrors={errorsFor("reason")}
                          />
                        );
                      })}
                    </ul>
                  </section>
                );
              })}
              {editable ? (
                <p className="actions">
                  <button type="button" onClick={() => confirm.mutate()} disabled={confirm.isPending}>
                    {chosen.length
                      ? `${confirmLabel} (${chosen.length} overridden)`
                      : confirmLabel}
                  </button>
                </p>
              ) : null}
              <SubmitErrors error={confirm.error} unplaced={placed.unplaced()} />
            </>
          );
        }}
      </QueryView>
    </section>
  );
}
