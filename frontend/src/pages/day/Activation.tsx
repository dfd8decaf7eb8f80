/** Activation points spent on one column of the activation chart for a turn of the segment. */
import { useId, useState, type FormEvent } from "react";
import { type Schemas } from "../../api/client";
import { useActivationSpend } from "../../api/day";
import { FieldErrors, fieldErrorsOf } from "../../components/FieldErrors";
import { TurnField } from "../../components/TurnField";
import { ErrorNotice } from "../../components/status";
import { sideName } from "../../lib/sides";
import { noun, plural } from "../../lib/words";

type Campaign = Schemas["Campaign"];
type Force = Schemas["ForceTree"];

/** Spend a side's activation points on one column of the chart for a turn: the side's pool, the
 * columns with their costs, and the side's battalions by battlegroup. */
export function ActivationForm({ campaign, forces }: { campaign: Campaign; forces: readonly Force[] }) {
  const id = useId();
  const [sideId, setSideId] = useState(campaign.sides[0]?.id ?? 0);
  // The turns the segment under way plays, as the API counts them through the day.
  const turns = campaign.segment_turns;
  const [chosenTurn, setTurn] = useState(turns[0] ?? 0);
  // A segment opened since the turn was chosen: its first turn, not one the segment does not play.
  const turn = turns.includes(chosenTurn) ? chosenTurn : (turns[0] ?? 0);
  const [column, setColumn] = useState<Schemas["ColumnEnum"]>("1 Bn");
  const [codes, setCodes] = useState<string[]>([]);
  const side = campaign.sides.find((s) => s.id === sideId);
  const spend = useActivationSpend(campaign.slug, sideId, () => setCodes([]));
  // The chart's columns at this turn with their costs, as the API prices them.
  const columns = campaign.activation_costs.filter((cost) => cost.turn === turn);
  const errors = fieldErrorsOf(spend.error);
  const codeErrors = Object.entries(errors)
    .filter(([field]) => field.startsWith("battalion_codes"))
    .flatMap(([, messages]) => messages);
  const ownForces = forces.filter((force) => force.side === sideId);
  const price = columns.find((choice) => choice.column === column)?.cost;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    spend.mutate({ column, turn, battalion_codes: codes });
  };
  return (
    <section aria-labelledby={`${id}-activation`} className="card">
      <h2 id={`${id}-activation`}>Spend activation points</h2>
      <form onSubmit={submit} aria-label="Spend activation points">
        <div className="inline-fields">
          <div className="field">
            <label htmlFor={`${id}-side`}>Side</label>
            <select
              id={`${id}-side`}
              value={sideId}
              onChange={(e) => {
                setSideId(Number(e.target.value));
                setCodes([]);
              }}
            >
              {campaign.sides.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <TurnField id={id} turns={turns} turn={turn} onChange={setTurn} errors={errors.turn ?? []} />
        </div>
        <p className="pool" aria-live="polite">
          {side?.name ?? "The side"} holds <strong>{side?.activation_points ?? "?"}</strong> activation{" "}
          {noun(side?.activation_points ?? 0, "point")}
          {side?.activation_cap != null ? ` (at most ${side.activation_cap})` : ""}.
        </p>
        {/* Why the pool holds what it does: the API words it from the rules the campaign plays. */}
        <p className="muted">{campaign.activation_points_help}</p>
        <fieldset aria-describedby={`${id}-column-errors`}>
          <legend>Column</legend>
          {columns.map((choice) => (
            <label key={choice.column} className="check">
              <input
                type="radio"
                name={`${id}-column`}
                value={choice.column}
                checked={column === choice.column}
                onChange={() => setColumn(choice.column)}
              />{" "}
              {choice.column_label} <span className="muted">costs {choice.cost} AP</span>
            </label>
          ))}
          <FieldErrors id={`${id}-column-errors`} messages={errors.column ?? []} />
        </fieldset>
        <fieldset aria-describedby={`${id}-codes-errors`}>
          <legend>Battalions to activate</legend>
          {ownForces.flatMap((force) =>
            force.battlegroups.map((group) => (
              <div key={group.id} className="battlegroup-pick" role="group" aria-label={group.name}>
                <p className="muted">
                  {force.name}: {group.name}
                </p>
                {group.battalions.map((battalion) => (
                  <label key={battalion.id} className="check">
                    <input
                      type="checkbox"
                      checked={codes.includes(battalion.code)}
                      onChange={(e) =>
                        setCodes(e.target.checked ? [...codes, battalion.code] : codes.filter((c) => c !== battalion.code))
                      }
                    />{" "}
                    {battalion.code} {battalion.name}
                    {battalion.activation_label ? <span className="muted"> · {battalion.activation_label.toLowerCase()}</span> : null}
                    {battalion.in_reserve ? <span className="tag">reserve</span> : null}
                  </label>
                ))}
              </div>
            )),
          )}
          <FieldErrors id={`${id}-codes-errors`} messages={codeErrors} />
        </fieldset>
        <button type="submit" disabled={spend.isPending || !codes.length}>
          Spend {price == null ? "points" : plural(price, "point")} on {column}
        </button>
        {spend.isError ? <ErrorNotice error={spend.error} /> : null}
        {spend.isSuccess ? (
          <p role="status">
            {sideName(campaign, sideId)} spent {plural(spend.data.cost, "point")} on {spend.data.column}: {spend.data.battalions.join(", ")}.
          </p>
        ) : null}
      </form>
    </section>
  );
}

