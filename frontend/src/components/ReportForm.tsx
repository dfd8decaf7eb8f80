import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { labelIn, useTerms, type Term } from "../api/vocabulary";
import { FieldErrors, SubmitErrors, placedErrors } from "./FieldErrors";

type Fate = "" | "suppressed" | "destroyed";

interface BattalionDraft {
  code: string;
  fates: Record<string, Fate>;
  activationPoints: string;
  barrageRounds: string;
  supply: Schemas["SupplySituationEnum"] | "";
  fuel: Schemas["ReportedFuelStateEnum"] | "";
  objectives: string;
}

function draftOf(code: string): BattalionDraft {
  return { code, fates: {}, activationPoints: "", barrageRounds: "", supply: "", fuel: "", objectives: "" };
}

/** A battalion's inputs filled in from a report already written (a side's draft). */
function draftFrom(code: string, report: Schemas["BattleReportInputRequest"] | null | undefined): BattalionDraft {
  const draft = draftOf(code);
  const entry = report?.battalions.find((line) => line.code === code);
  if (!entry) return draft;
  for (const label of entry.suppressed ?? []) draft.fates[label] = "suppressed";
  for (const label of entry.destroyed ?? []) draft.fates[label] = "destroyed";
  const text = (value: number | undefined) => (value === undefined ? "" : String(value));
  return {
    ...draft,
    activationPoints: text(entry.activation_points_spent),
    barrageRounds: text(entry.barrage_rounds_spent),
    supply: entry.supply_situation ?? "",
    fuel: entry.fuel_state ?? "",
    objectives: (entry.objectives ?? []).map((objective) => objective.name).join("\n"),
  };
}

function number(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

// The battle itself: the winner and the sector's holder as a side's id, "none" for nobody; blank: not said.
interface BattleDraft {
  winner: string;
  sectorOwner: string;
  turn: string;
}

function battleFrom(report: Schemas["BattleReportInputRequest"] | null | undefined): BattleDraft {
  const side = (value: number | null | undefined) => (value === undefined ? "" : value === null ? "none" : String(value));
  return {
    winner: side(report?.winner),
    sectorOwner: side(report?.sector_owner),
    turn: report?.turn === undefined ? "" : String(report.turn),
  };
}

function sideOf(text: string): number | null | undefined {
  return text === "" ? undefined : text === "none" ? null : Number(text);
}

/** The report body the API takes; blank inputs are left out. */
function reportBody(drafts: BattalionDraft[], battleDraft: BattleDraft): Schemas["BattleReportInputRequest"] {
  const winner = sideOf(battleDraft.winner);
  const owner = sideOf(battleDraft.sectorOwner);
  const turn = number(battleDraft.turn);
  return {
    ...(winner !== undefined ? { winner } : {}),
    ...(owner !== undefined ? { sector_owner: owner } : {}),
    ...(turn !== undefined ? { turn } : {}),
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
      if (draft.fuel) entry.fuel_state = draft.fuel;
      if (objectives.length) entry.objectives = objectives;
      return entry;
    }),
  };
}

/** What each side of the battle has left to spend, as the campaign summary shows it. */
function Pools({ battle, sides }: { battle: Schemas["Battle"]; sides: Schemas["SideSummary"][] }) {
  const fighting = [battle.attacker, battle.defender]
    .map((id) => sides.find((side) => side.id === id))
    .filter((side): side is Schemas["SideSummary"] => side !== undefined);
  if (!fighting.length) return null;
  return (
    <dl className="facts pools" aria-label="Left to spend">
      {fighting.map((side) => (
        <div key={side.id}>
          <dt>{side.name}</dt>
          <dd>
            {side.activation_points ?? "hidden"} activation points
            {side.activation_cap != null ? ` (cap ${side.activation_cap})` : ""}, {side.barrage_rounds ?? "hidden"}{" "}
            barrage rounds left
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The umpire's battle report: stands lost or suppressed, points and rounds spent, objectives,
 * with each side's points and rounds left; the fuel of each battalion in ``fuel`` (code → its
 * fuel state now: the vehicle battalions, when the campaign plays fuel supply). Field errors of
 * the API's 400 are shown next to the input they name, and the refusal next to Submit.
 * With ``sideDraft`` it is a player's draft of the same report instead (rules notes C-20): filled
 * in from their side's draft so far, asking of each battalion only the fields the API says the
 * side may draft (``battalions``), saved with ``PUT draft/``, changing nothing else. */
export function ReportForm({
  slug,
  battle,
  stands,
  sides = [],
  fuel = {},
  onReported,
  sideDraft,
}: {
  slug: string;
  battle: Schemas["Battle"];
  stands: Record<string, Schemas["Stand"][]>;
  sides?: Schemas["SideSummary"][];
  fuel?: Record<string, string>;
  onReported?: (battle: Schemas["Battle"]) => void;
  sideDraft?: {
    report: Schemas["BattleReportInputRequest"] | null;
    battalions: Schemas["DraftableBattalion"][];
    draftable: Schemas["OwnDraft"]["draftable"];
  };
}) {
  const [battleDraft, setBattleDraft] = useState<BattleDraft>(() => battleFrom(sideDraft?.report));
  const supplySituations = useTerms("supply_situation");
  const fuelStates = useTerms("reported_fuel");
  // A field asks for an item of the report: it reads as the API names the item.
  const draftItems = useTerms("draft_item_kind");
  const itemLabel = (kind: Schemas["DraftItemKindEnum"]) => labelIn(draftItems, kind);
  // The umpire reports every field; a side drafts what the API lists for each battalion.
  const asks = (code: string, field: Schemas["DraftableBattalion"]["draftable"][number]) =>
    !sideDraft || (sideDraft.battalions.find((entry) => entry.code === code)?.draftable.includes(field) ?? false);
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<BattalionDraft[]>(() =>
    battle.battalions.map((code) => draftFrom(code, sideDraft?.report)),
  );
  // One key per intended report: a retry after a lost answer is replayed, not applied twice.
  const [key, setKey] = useState(idempotencyKey);
  const report = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/battles/{id}/report/", {
          params: { path: { campaign_slug: slug, id: battle.id }, header: { "Idempotency-Key": key } },
          body: reportBody(drafts, battleDraft),
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
  // A draft replaces the side's last one (PUT): saving it twice is harmless, so no key.
  const saveDraft = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT("/api/v1/campaigns/{campaign_slug}/battles/{id}/draft/", {
          params: { path: { campaign_slug: slug, id: battle.id } },
          body: reportBody(drafts, battleDraft),
        }),
      ),
    onSuccess: (own) => queryClient.setQueryData(queryKeys.battleDraft(slug, battle.id), own),
  });
  const write = sideDraft ? saveDraft : report;
  const { fields, errorsFor, errorsUnder, unplaced } = placedErrors(write.error);
  const update = (index: number, change: Partial<BattalionDraft>) =>
    setDrafts(drafts.map((draft, i) => (i === index ? { ...draft, ...change } : draft)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    write.mutate();
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
    const choice = (
      name: string,
      label: string,
      unchanged: string,
      value: string,
      options: readonly Term[],
      change: (value: string) => void,
    ) => (
      <div className="field">
        <label htmlFor={id(name)}>{label}</label>
        <select
          id={id(name)}
          value={value}
          onChange={(e) => change(e.target.value)}
          aria-describedby={`${id(name)}-errors`}
        >
          <option value="">{unchanged}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <FieldErrors id={`${id(name)}-errors`} messages={errorsFor(`${prefix}.${name}`)} />
      </div>
    );
    return (
      <fieldset key={draft.code} className="card">
        <legend>Battalion {draft.code}</legend>
        <FieldErrors id={id("code-errors")} messages={errorsFor(prefix, `${prefix}.code`)} />
        {asks(draft.code, "destroyed") ? (
          <>
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
          </>
        ) : (
          <p className="muted">Your fog of war hides its stands: its own side drafts them.</p>
        )}
        <FieldErrors
          id={id("stands-errors")}
          messages={[...errorsUnder(`${prefix}.destroyed`), ...errorsUnder(`${prefix}.suppressed`)]}
        />
        {asks(draft.code, "activation_points_spent")
          ? input("activation_points_spent", itemLabel("activation_points_spent"), draft.activationPoints, (text) =>
              update(index, { activationPoints: text }),
            )
          : null}
        {asks(draft.code, "barrage_rounds_spent")
          ? input("barrage_rounds_spent", itemLabel("barrage_rounds_spent"), draft.barrageRounds, (text) =>
              update(index, { barrageRounds: text }),
            )
          : null}
        {asks(draft.code, "supply_situation")
          ? choice("supply_situation", itemLabel("supply_situation"), "unchanged", draft.supply, supplySituations, (value) =>
              update(index, { supply: value as BattalionDraft["supply"] }),
            )
          : null}
        {draft.code in fuel && asks(draft.code, "fuel_state")
          ? choice("fuel_state", "Fuel at the end", `unchanged (${fuel[draft.code]})`, draft.fuel, fuelStates, (value) =>
              update(index, { fuel: value as BattalionDraft["fuel"] }),
            )
          : null}
        {asks(draft.code, "objectives") ? (
          <div className="field">
            <label htmlFor={id("objectives")}>Objectives taken (one a line)</label>
            <textarea
              id={id("objectives")}
              rows={2}
              value={draft.objectives}
              onChange={(e) => update(index, { objectives: e.target.value })}
              aria-describedby={`${id("objectives")}-errors`}
            />
            <FieldErrors id={`${id("objectives")}-errors`} messages={errorsUnder(`${prefix}.objectives`)} />
          </div>
        ) : null}
      </fieldset>
    );
  });
  // The battle's own fields: every one for the umpire, those the API lists for a side's draft.
  const asksBattle = (field: Schemas["OwnDraft"]["draftable"][number]) =>
    !sideDraft || sideDraft.draftable.includes(field);
  const fighting = [battle.attacker, battle.defender].map((id) => ({
    id,
    name: sides.find((side) => side.id === id)?.name ?? `side ${id}`,
  }));
  const sideChoice = (name: "winner" | "sector_owner", label: string, unsaid: string, nobody: string) => {
    const value = name === "winner" ? battleDraft.winner : battleDraft.sectorOwner;
    const change = (text: string) =>
      setBattleDraft({ ...battleDraft, ...(name === "winner" ? { winner: text } : { sectorOwner: text }) });
    return (
      <div className="field">
        <label htmlFor={`report-${name}`}>{label}</label>
        <select
          id={`report-${name}`}
          value={value}
          onChange={(e) => change(e.target.value)}
          aria-invalid={(fields[name] ?? []).length > 0}
          aria-describedby={`report-${name}-errors`}
        >
          <option value="">{unsaid}</option>
          {fighting.map((side) => (
            <option key={side.id} value={String(side.id)}>
              {side.name}
            </option>
          ))}
          <option value="none">{nobody}</option>
        </select>
        <FieldErrors id={`report-${name}-errors`} messages={errorsFor(name)} />
      </div>
    );
  };
  const outcome = (
    <fieldset className="card">
      <legend>The battle</legend>
      {asksBattle("winner") ? sideChoice("winner", itemLabel("winner"), "not said", "Nobody (a draw)") : null}
      {asksBattle("sector_owner")
        ? sideChoice("sector_owner", itemLabel("sector_owner"), "unchanged", "Contested")
        : null}
      {asksBattle("turn") ? (
        <div className="field">
          <label htmlFor="report-turn">Turn the points were spent</label>
          <input
            id="report-turn"
            type="number"
            inputMode="numeric"
            min={0}
            value={battleDraft.turn}
            onChange={(e) => setBattleDraft({ ...battleDraft, turn: e.target.value })}
            aria-invalid={(fields.turn ?? []).length > 0}
            aria-describedby="report-turn-errors"
          />
          <FieldErrors id="report-turn-errors" messages={errorsFor("turn")} />
        </div>
      ) : null}
    </fieldset>
  );
  if (sideDraft)
    return (
      <form className="report-form" onSubmit={submit} noValidate aria-label="Your side's draft report">
        {body}
        {outcome}
        <SubmitErrors error={write.error} unplaced={unplaced()} />
        <button type="submit" disabled={write.isPending}>
          {write.isPending ? "Saving…" : "Save draft"}
        </button>
        {write.isSuccess ? <p role="status">Draft saved: the umpire compares both sides' drafts.</p> : null}
      </form>
    );
  return (
    <form className="report-form" onSubmit={submit} noValidate aria-label="Battle report">
      <h2>Report the battle</h2>
      <Pools battle={battle} sides={sides} />
      {body}
      {outcome}
      <SubmitErrors error={write.error} unplaced={unplaced()} />
      <button type="submit" disabled={write.isPending}>
        {write.isPending ? "Reporting…" : "Submit report"}
      </button>
      {write.isSuccess ? <p role="status">Report saved.</p> : null}
    </form>
  );
}
