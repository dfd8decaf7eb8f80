import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { FieldErrors, fieldErrorsOf } from "./FieldErrors";

type Fate = "" | "suppressed" | "destroyed";

interface BattalionDraft {
  code: string;
  fates: Record<string, Fate>;
  activationPoints: string;
  barrageRounds: string;
  supply: Schemas["SupplySituationEnum"] | "";
  objectives: string;
}

const SUPPLY_SITUATIONS: Schemas["SupplySituationEnum"][] = ["OK", "separated", "isolated", "reserve"];

function draftOf(code: string): BattalionDraft {
  return { code, fates: {}, activationPoints: "", barrageRounds: "", supply: "", objectives: "" };
}

function number(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

/** The report body the API takes; blank inputs are left out. */
function reportBody(drafts: BattalionDraft[]): Schemas["BattleReportInputRequest"] {
  return {
    battalions: drafts.map((draft) => {
      const labels = (fate: Fate) => Object.keys(draft.fates).filter((label) => draft.fates[label] === fate);
      const objectives = draft.objectives
        .split("\n")
        .map((name) => name.trim())
        .filter(Boolean)
        .map((name) => ({ name }));
      const entry: Schemas["ReportedBattalionInputRequest"] = { code: draft.code };
      if (labels("destroyed").length) entry.destroyed = labels("destroyed");
      if (labels("suppressed").length) entry.suppressed = labels("suppressed");
      const points = number(draft.activationPoints);
      if (points !== undefined) entry.activation_points_spent = points;
      const rounds = number(draft.barrageRounds);
      if (rounds !== undefined) entry.barrage_rounds_spent = rounds;
      if (draft.supply) entry.supply_situation = draft.supply;
      if (objectives.length) entry.objectives = objectives;
      return entry;
    }),
  };
}

/** The umpire's battle report: stands lost or suppressed, points and rounds spent, objectives.
 * Field errors of the API's 400 are shown next to the input they name. */
export function ReportForm({
  slug,
  battle,
  stands,
  onReported,
}: {
  slug: string;
  battle: Schemas["Battle"];
  stands: Record<string, Schemas["Stand"][]>;
  onReported?: (battle: Schemas["Battle"]) => void;
}) {
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<BattalionDraft[]>(() => battle.battalions.map(draftOf));
  // One key per intended report: a retry after a lost answer is replayed, not applied twice.
  const [key, setKey] = useState(idempotencyKey);
  const report = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/battles/{id}/report/", {
          params: { path: { campaign_slug: slug, id: battle.id }, header: { "Idempotency-Key": key } },
          body: reportBody(drafts),
        }),
      ),
    onSuccess: (reported) => {
      setKey(idempotencyKey());
      queryClient.setQueryData(queryKeys.battle(slug, battle.id), reported);
      void queryClient.invalidateQueries({ queryKey: queryKeys.battles(slug) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaign(slug) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.oob(slug) });
      onReported?.(reported);
    },
  });
  const fields = fieldErrorsOf(report.error);
  const shown = new Set<string>();
  const errorsFor = (path: string): string[] => {
    shown.add(path);
    return fields[path] ?? [];
  };
  const update = (index: number, change: Partial<BattalionDraft>) =>
    setDrafts(drafts.map((draft, i) => (i === index ? { ...draft, ...change } : draft)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    report.mutate();
  };

  const body = drafts.map((draft, index) => {
    const prefix = `battalions[${index}]`;
    const id = (name: string) => `report-${index}-${name}`;
    const input = (name: string, label: string, value: string, change: (text: string) => void) => (
      <div className="field">
        <label htmlFor={id(name)}>{label}</label>
        <input
          id={id(name)}
          type="number"
          inputMode="numeric"
          min={0}
          value={value}
          onChange={(e) => change(e.target.value)}
          aria-invalid={(fields[`${prefix}.${name}`] ?? []).length > 0}
          aria-describedby={`${id(name)}-errors`}
        />
        <FieldErrors id={`${id(name)}-errors`} messages={errorsFor(`${prefix}.${name}`)} />
      </div>
    );
    return (
      <fieldset key={draft.code} className="card">
        <legend>Battalion {draft.code}</legend>
        <FieldErrors id={id("code-errors")} messages={[...errorsFor(prefix), ...errorsFor(`${prefix}.code`)]} />
        <p className="muted">Stands lost or suppressed</p>
        <ul className="stand-fates">
          {(stands[draft.code] ?? []).map((stand) => (
            <li key={stand.id}>
              <label htmlFor={id(`stand-${stand.id}`)}>{stand.label}</label>{" "}
              <select
                id={id(`stand-${stand.id}`)}
                value={draft.fates[stand.label] ?? ""}
                onChange={(e) => update(index, { fates: { ...draft.fates, [stand.label]: e.target.value as Fate } })}
              >
                <option value="">unchanged ({stand.status_label?.toLowerCase() ?? "status unknown"})</option>
                <option value="suppressed">suppressed</option>
                <option value="destroyed">destroyed</option>
              </select>
            </li>
          ))}
        </ul>
        <FieldErrors
          id={id("stands-errors")}
          messages={[...errorsFor(`${prefix}.destroyed`), ...errorsFor(`${prefix}.suppressed`)]}
        />
        {input("activation_points_spent", "Activation points spent", draft.activationPoints, (text) =>
          update(index, { activationPoints: text }),
        )}
        {input("barrage_rounds_spent", "Barrage rounds spent", draft.barrageRounds, (text) =>
          update(index, { barrageRounds: text }),
        )}
        <div className="field">
          <label htmlFor={id("supply_situation")}>Supply at the end</label>
          <select
            id={id("supply_situation")}
            value={draft.supply}
            onChange={(e) => update(index, { supply: e.target.value as BattalionDraft["supply"] })}
            aria-describedby={`${id("supply_situation")}-errors`}
          >
            <option value="">unchanged</option>
            {SUPPLY_SITUATIONS.map((situation) => (
              <option key={situation} value={situation}>
                {situation}
              </option>
            ))}
          </select>
          <FieldErrors id={`${id("supply_situation")}-errors`} messages={errorsFor(`${prefix}.supply_situation`)} />
        </div>
        <div className="field">
          <label htmlFor={id("objectives")}>Objectives taken (one a line)</label>
          <textarea
            id={id("objectives")}
            rows={2}
            value={draft.objectives}
            onChange={(e) => update(index, { objectives: e.target.value })}
            aria-describedby={`${id("objectives")}-errors`}
          />
          <FieldErrors
            id={`${id("objectives")}-errors`}
            messages={Object.entries(fields)
              .filter(([path]) => path.startsWith(`${prefix}.objectives`))
              .flatMap(([path, messages]) => (shown.add(path), messages))}
          />
        </div>
      </fieldset>
    );
  });
  // Errors that name no input of this form (or none at all) go above it, never lost.
  const unplaced = Object.entries(fields).filter(([path]) => !shown.has(path));
  return (
    <form className="report-form" onSubmit={submit} noValidate aria-label="Battle report">
      <h2>Report the battle</h2>
      {report.error ? (
        <div className="error" role="alert">
          <strong>{report.error.message}</strong>
          {report.error instanceof ApiError && report.error.body.rule ? <p>Rule: {report.error.body.rule}</p> : null}
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
      ) : null}
      {body}
      <button type="submit" disabled={report.isPending}>
        {report.isPending ? "Reporting…" : "Submit report"}
      </button>
      {report.isSuccess ? <p role="status">Report saved.</p> : null}
    </form>
  );
}
