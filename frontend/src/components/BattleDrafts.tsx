import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { useTerms } from "../api/vocabulary";
import { FieldErrors, SubmitErrors, placedErrors } from "./FieldErrors";
import { ReportForm } from "./ReportForm";
import { QueryView } from "./status";

type Item = Schemas["DraftItem"];

/** When and by whom a draft was saved last, in words. */
function filedBy(draft: Schemas["Draft"]): string {
  const when = new Date(draft.updated_at).toLocaleString();
  return `${draft.status_label}, saved ${when}${draft.author ? ` by ${draft.author}` : ""}`;
}

/** A player's draft of the battle's report for their side (rules notes C-20): the report form
 * filled in with the side's draft so far, and whether the other side has filed one (never what
 * it says). */
export function SideDraft({
  slug,
  battle,
  stands,
  fuel,
  sides = [],
}: {
  slug: string;
  battle: Schemas["Battle"];
  stands: Record<string, Schemas["Stand"][]>;
  fuel?: Record<string, string>;
  sides?: Schemas["SideSummary"][];
}) {
  const own = useQuery({
    queryKey: queryKeys.battleDraft(slug, battle.id),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/battles/{id}/draft/", {
          params: { path: { campaign_slug: slug, id: battle.id } },
        }),
      ),
  });
  return (
    <section aria-labelledby="side-draft-title" className="side-draft">
      <h2 id="side-draft-title">Your side's draft report</h2>
      <QueryView query={own} what="your side's draft">
        {(data) => (
          <>
            <p>
              {data.draft ? `Your side's draft: ${filedBy(data.draft)}.` : "Your side has not filed a draft yet."}{" "}
              {data.opponent_filed ? "The other side has filed its draft." : "The other side has not filed yet."}
            </p>
            {battle.actions.includes("draft") ? (
              <ReportForm
                slug={slug}
                battle={battle}
                stands={stands}
                fuel={fuel}
                sides={sides}
                sideDraft={{
                  report: (data.draft?.report ?? null) as Schemas["BattleReportInputRequest"] | null,
                  battalions: data.battalions,
                  draftable: data.draftable,
                }}
              />
            ) : (
              <p className="muted">The battle is reported: drafts are closed.</p>
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}

/** Where an item is: the battle, a battalion, or a stand of it. */
function itemTitle(item: Item): string {
  if (item.stand) return `${item.battalion} ${item.stand}`;
  if (item.battalion) return `${item.battalion}: ${item.kind_label}`;
  return item.kind_label;
}

function ItemList({ items, caption }: { items: Item[]; caption: string }) {
  if (!items.length) return null;
  return (
    <>
      <h3>{caption}</h3>
      <ul className="draft-items">
        {items.map((item) => (
          <li key={item.key}>
            <strong>{itemTitle(item)}</strong>: {item.text ?? ""}
            {/* Its versions are the drafts that entered it: one names the side that alone did. */}
            {item.versions.length === 1 ? (
              <span className="muted"> ({item.versions.map((v) => v.side_name).join(", ")} only)</span>
            ) : null}
            {item.stand_now_label ? <span className="muted"> · now {item.stand_now_label.toLowerCase()}</span> : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The umpire's comparison of both sides' drafts: what they agree on, what one side alone
 * entered, and each conflict with both versions side by side to choose from; confirming makes the
 * battle's report. A draft changed since the comparison was read is refused (409): reload. */
export function DraftComparison({ slug, battle }: { slug: string; battle: Schemas["Battle"] }) {
  const queryClient = useQueryClient();
  const itemStatuses = useTerms("draft_item_status");
  const compared = useQuery({
    queryKey: queryKeys.battleDrafts(slug, battle.id),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/battles/{id}/drafts/", {
          params: { path: { campaign_slug: slug, id: battle.id } },
        }),
      ),
  });
  const [choices, setChoices] = useState<Record<string, number>>({});
  const [key, setKey] = useState(idempotencyKey);
  const confirm = useMutation({
    mutationFn: (revision: string) =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/battles/{id}/drafts/confirm/", {
          params: { path: { campaign_slug: slug, id: battle.id }, header: { "Idempotency-Key": key } },
          body: { revision, choices },
        }),
      ),
    onSuccess: (reported) => {
      setKey(idempotencyKey());
      queryClient.setQueryData(queryKeys.battle(slug, battle.id), reported);
      void queryClient.invalidateQueries({ queryKey: queryKeys.battles(slug) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaign(slug) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.oob(slug) });
    },
  });
  const { errorsFor, unplaced } = placedErrors(confirm.error);
  const stale = confirm.error instanceof ApiError && confirm.error.status === 409;
  const reload = () => {
    confirm.reset();
    setChoices({});
    setKey(idempotencyKey());
    void compared.refetch();
  };
  return (
    <section aria-labelledby="drafts-title" className="draft-comparison">
      <h2 id="drafts-title">The sides' drafts</h2>
      <QueryView query={compared} what="the sides' drafts">
        {(data) => {
          if (!data.drafts.length) return <p className="muted">No side has filed a draft yet.</p>;
          const conflicts = data.items.filter((item) => item.choose);
          const submit = (event: FormEvent) => {
            event.preventDefault();
            confirm.mutate(data.revision);
          };
          return (
            <form onSubmit={submit} noValidate aria-label="Confirm the drafts">
              <ul>
                {data.drafts.map((draft) => (
                  <li key={draft.side}>
                    {draft.side_name}: {filedBy(draft)}
                  </li>
                ))}
              </ul>
              {conflicts.length ? (
                <>
                  <h3>Conflicts: choose a version</h3>
                  {conflicts.map((item, index) => {
                    // Keys hold spaces ("battalions[G1].stands[1. Kp]"): an id must not, aria-describedby splits on them.
                    const id = `conflict-${index}`;
                    return (
                      <fieldset key={item.key} className="card conflict" aria-describedby={`${id}-errors`}>
                        <legend>
                          {itemTitle(item)}
                          {item.stand_now_label ? ` (now ${item.stand_now_label.toLowerCase()})` : ""}
                        </legend>
                        <div className="versions">
                          {item.versions.map((version) => (
                            <label key={version.side} className="version">
                              <input
                                type="radio"
                                name={id}
                                checked={choices[item.key] === version.side}
                                onChange={() => setChoices({ ...choices, [item.key]: version.side })}
                              />{" "}
                              <span>
                                <strong>{version.side_name}</strong>: {version.text}
                              </span>
                            </label>
                          ))}
                        </div>
                        <FieldErrors id={`${id}-errors`} messages={errorsFor(`choices.${item.key}`)} />
                      </fieldset>
                    );
                  })}
                </>
              ) : (
                <p>The drafts do not conflict.</p>
              )}
              {/* The rest by how the drafts stand on them, in the vocabulary's order (conflicts are above). */}
              {itemStatuses.map((term) => (
                <ItemList
                  key={term.value}
                  caption={term.label}
                  items={data.items.filter((item) => !item.choose && item.status === term.value)}
                />
              ))}
              {stale ? (
                <div className="error" role="alert">
                  <strong>A draft changed since you read this comparison: reload it and choose again.</strong>{" "}
                  <button type="button" onClick={reload}>
                    Reload the drafts
                  </button>
                </div>
              ) : (
                <SubmitErrors error={confirm.error} unplaced={unplaced()} />
              )}
              <button type="submit" disabled={confirm.isPending || stale}>
                {confirm.isPending ? "Confirming…" : "Confirm as the battle's report"}
              </button>
              {confirm.isSuccess ? <p role="status">Report confirmed.</p> : null}
            </form>
          );
        }}
      </QueryView>
    </section>
  );
}
