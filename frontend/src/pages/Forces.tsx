import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { FieldErrors, SubmitErrors, placedErrors } from "../components/FieldErrors";
import { RollCard } from "../components/RollCard";
import { StandCorrection } from "../components/StandCorrection";
import { TurnField } from "../components/TurnField";
import { Masked, QueryView, StatusIcon } from "../components/status";
import { sideName } from "../lib/sides";
import { useCampaign } from "../session";

type Stand = Schemas["Stand"];

function StandItem({ stand, correctIn }: { stand: Stand; correctIn?: string }) {
  return (
    <li className="stand">
      <StatusIcon status={stand.status} label={stand.status_label} /> {stand.label}{" "}
      {/* A stand named for its type ("HQ") is not named twice. */}
      {stand.stand_type_label !== stand.label ? <span className="muted">{stand.stand_type_label}</span> : null}
      {stand.equipment_name ? <span className="muted"> · {stand.equipment_name}</span> : null}
      {stand.grade ? <span className="muted"> · grade {stand.grade}</span> : null}
      {stand.entrenched ? <span className="tag">entrenched</span> : null}
      {!stand.entrenched && stand.entrenchment_points ? (
        <span className="muted"> · digging in ({stand.entrenchment_points} of 5 action points)</span>
      ) : null}
      {stand.attached ? (
        <span className="tag">attached{stand.attachment_kind_label ? `: ${stand.attachment_kind_label}` : ""}</span>
      ) : null}
      {correctIn ? (
        <details className="correct-box">
          <summary>Correct {stand.label}</summary>
          <StandCorrection slug={correctIn} stand={stand} />
        </details>
      ) : null}
    </li>
  );
}

// A battalion's facts: a null one is hidden from the reader by fog of war and left out.
const BATTALION_FACTS: ReadonlyArray<[string, (b: Schemas["BattalionTree"]) => unknown]> = [
  ["Quality", (b) => b.quality],
  ["Stands at start", (b) => b.stands_started],
  ["Supply", (b) => b.supply_situation_label],
  ["Fuel", (b) => b.fuel_state_label],
  ["Activation", (b) => b.activation_label],
  ["Ammo low markers", (b) => b.ammo_low_markers],
];

/** A battalion as the reader may see it: an identified enemy battalion shows what its side's fog
 * of war reveals (its name; its stands when it reveals strengths) and nothing in place of the rest. */
export function BattalionNode({
  battalion,
  correctIn,
  historyIn,
}: {
  battalion: Schemas["BattalionTree"];
  correctIn?: string;
  historyIn?: string;
}) {
  const facts = BATTALION_FACTS.map(([name, value]) => [name, value(battalion)] as const).filter(
    ([, value]) => value !== null && value !== undefined,
  );
  const enemy = battalion.in_reserve === null; // a field every side's own battalion has
  return (
    <li className="battalion">
      <details>
        <summary>
          <strong>{battalion.code}</strong> {battalion.name}
          {battalion.in_reserve ? <span className="tag">reserve</span> : null}
          {enemy ? <span className="tag">identified</span> : null}
        </summary>
        {historyIn ? (
          <p>
            <Link to={`/campaigns/${historyIn}/forces/battalions/${battalion.id}`}>
              Service history of {battalion.code}
            </Link>
          </p>
        ) : null}
        {facts.length ? (
          <dl className="facts">
            {facts.map(([name, value]) => (
              <Fragment key={name}>
                <dt>{name}</dt>
                <dd>
                  <Masked value={value} />
                </dd>
              </Fragment>
            ))}
          </dl>
        ) : null}
        {battalion.stands.length ? (
          <ul className="stands" aria-label={`stands of ${battalion.code}`}>
            {battalion.stands.map((stand) => (
              <StandItem key={stand.id} stand={stand} correctIn={correctIn} />
            ))}
          </ul>
        ) : enemy ? (
          <p className="muted">Identified; its side does not reveal its strength.</p>
        ) : (
          <p className="muted">No stands.</p>
        )}
      </details>
    </li>
  );
}

/** One's own division as the rules see it today: its activation pool, what it carried over the
 * last night (Malta's division pools), whether its C Ops rolls as cut off from supply (variant 1),
 * and how many of its battalions are isolated. The API leaves each null when it does not apply. */
export function DivisionEffects({ status }: { status: Schemas["ForceStatus"] }) {
  const report = status.latest_night_report;
  // An arrivals report has no divisions: only a night's carries pools over.
  const divisions = report && "divisions" in report.body ? report.body.divisions : undefined;
  const carried = divisions?.find((division) => division.name === status.force.name);
  const isolated = status.battalions.filter((b) => b.supply_situation === "isolated").map((b) => b.code);
  return (
    <dl className="facts">
      {status.force.activation_points != null ? (
        <>
          <dt>Division activation points</dt>
          <dd>{status.force.activation_points}</dd>
        </>
      ) : null}
      {carried && report ? (
        <>
          <dt>Carried over night {report.day}</dt>
          <dd>
            {carried.carried} of {carried.before}
          </dd>
        </>
      ) : null}
      {status.cops_isolated_from_source != null ? (
        <>
          <dt>C Ops</dt>
          <dd>
            {status.cops_isolated_from_source
              ? "isolated from its source of supply: its action-point roll takes −10%"
              : "in supply"}
          </dd>
        </>
      ) : null}
      <dt>Isolated battalions</dt>
      <dd>{isolated.length ? isolated.join(", ") : "none"}</dd>
    </dl>
  );
}

function ForceStatusPanel({ slug, forceId }: { slug: string; forceId: string }) {
  const status = useQuery({
    queryKey: queryKeys.forceStatus(slug, forceId),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/forces/{id}/status/", {
          params: { path: { campaign_slug: slug, id: forceId } },
        }),
      ),
  });
  return (
    <QueryView query={status} what="the force status">
      {(data) => (
        <div className="force-status">
          {data.strength ? <h4>Strength by stand type</h4> : null}
          {data.strength ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col">OK</th>
                  <th scope="col">Suppressed</th>
                  <th scope="col">Destroyed</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(data.strength).map(([type, counts]) => (
                  <tr key={type}>
                    <th scope="row">{data.strength_labels?.[type] ?? type}</th>
                    <td>{counts.ok ?? 0}</td>
                    <td>{counts.suppressed ?? 0}</td>
                    <td>{counts.destroyed ?? 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            // An enemy force: only the battalions its side's fog of war lets the reader identify.
            <p className="muted">Only the battalions your side has identified are shown.</p>
          )}
          {data.strength ? <h4>Division</h4> : null}
          {data.strength ? <DivisionEffects status={data} /> : null}
          <h4>{data.strength ? "Battalions" : "Identified battalions"}</h4>
          <ul>
            {data.battalions.map((b) => (
              <li key={b.code}>
                <strong>{b.code}</strong> {b.location_label}
                {b.battle ? ` (${b.battle.sector_name})` : ""}
                {b.stands ? ` · stands ${b.stands.ok} ok, ${b.stands.suppressed} suppressed, ${b.stands.destroyed} destroyed` : ""}
                {b.supply_situation_label ? ` · supply ${b.supply_situation_label}` : ""}
                {/* Only a battalion with fuel to speak of, as the API says (never "fuel Not a vehicle company"). */}
                {b.reports_fuel && b.fuel_state_label ? ` · fuel ${b.fuel_state_label.toLowerCase()}` : ""}
              </li>
            ))}
          </ul>
        </div>
      )}
    </QueryView>
  );
}

type Qualities = Pick<Schemas["OrderOfBattle"], "cops_qualities" | "cops_qualities_labels">;

/** Variant 1: the umpire rolls a division's C Ops action points at the quality they give it, and
 * (variant 2) saves them as the division's activation points. Offered as the force's actions say. */
export function CopsActionPointsForm({
  campaign,
  force,
  qualities,
}: {
  campaign: Schemas["Campaign"];
  force: Schemas["ForceTree"];
  qualities: Qualities;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const turns = campaign.segment_turns;
  const canSave = force.actions.includes("save_action_points");
  const [turn, setTurn] = useState(turns[0] ?? 0);
  const [quality, setQuality] = useState<Schemas["QualityEnum"] | "">("");
  const [save, setSave] = useState(canSave);
  const labelOf = (action: Schemas["ForceActionEnum"]) => force.actions_labels[force.actions.indexOf(action)];
  const roll = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/forces/{id}/cops-action-points/", {
          params: { path: { campaign_slug: campaign.slug, id: force.id }, header: { "Idempotency-Key": idempotencyKey() } },
          body: { turn, quality: quality as Schemas["QualityEnum"], convert: canSave && save },
        }),
      ),
    // The division's pool, the day's points and the roll log changed.
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  const { errorsFor, unplaced } = placedErrors(roll.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    roll.mutate();
  };
  return (
    <form className="card" aria-label={`C Ops action points of ${force.name}`} onSubmit={submit}>
      <p className="muted">{campaign.activation_points_help}</p>
      <div className="inline-fields">
        <TurnField id={id} turns={turns} turn={turn} onChange={setTurn} errors={errorsFor("turn")} />
        <div className="field">
          <label htmlFor={`${id}-quality`}>Quality of its C Ops</label>
          <select
            id={`${id}-quality`}
            value={quality}
            required
            aria-describedby={`${id}-quality-errors`}
            onChange={(e) => setQuality(e.target.value as Schemas["QualityEnum"])}
          >
            <option value="">Pick its quality</option>
            {qualities.cops_qualities.map((code, index) => (
              <option key={code} value={code}>
                {qualities.cops_qualities_labels[index]}
              </option>
            ))}
          </select>
          <FieldErrors id={`${id}-quality-errors`} messages={errorsFor("quality")} />
        </div>
      </div>
      {canSave ? (
        <label className="check">
          <input type="checkbox" checked={save} onChange={(e) => setSave(e.target.checked)} /> {labelOf("save_action_points")}
        </label>
      ) : null}
      <FieldErrors id={`${id}-convert-errors`} messages={errorsFor("convert")} />
      <button type="submit" disabled={roll.isPending || !quality}>
        {labelOf("roll_cops_action_points")}
      </button>
      <SubmitErrors error={roll.error} unplaced={unplaced()} />
      {roll.isSuccess ? <RollCard roll={roll.data} open /> : null}
    </form>
  );
}

function ForceNode({
  force,
  campaign,
  isUmpire,
  qualities,
}: {
  force: Schemas["ForceTree"];
  campaign: Schemas["Campaign"];
  isUmpire: boolean;
  qualities: Qualities;
}) {
  const [showStatus, setShowStatus] = useState(false);
  // A force of a side the reader does not see in full shows its public fields only (the rest are null).
  const inFull = force.arrival_status_label !== null;
  return (
    <li className="card force">
      <h2>
        {force.name} <span className="muted">({sideName(campaign, force.side)}, {force.nation_label})</span>
      </h2>
      {inFull ? (
        <dl className="facts">
          <dt>Leader</dt>
          <dd>
            {force.leader_name === "" ? null : (
              <>
                <Masked value={force.leader_name} />,{" "}
              </>
            )}
            <Masked value={force.leader_rating_label} />
          </dd>
          <dt>Arrival</dt>
          <dd>
            {force.arrival_status_label}
            {force.arrival_day ? `, day ${force.arrival_day}` : ""}
            {force.arrival_zone ? `, ${force.arrival_zone}` : ""}
            {force.deployment_zone ? ` (${force.deployment_zone})` : ""}
          </dd>
          <dt>Mobility</dt>
          <dd>
            <Masked value={force.mobility_label} />
          </dd>
          <dt>Division activation points</dt>
          <dd>
            <Masked value={force.activation_points} hidden="hidden" />
          </dd>
        </dl>
      ) : (
        <p className="muted">An enemy force: you see the battalions your side has identified.</p>
      )}
      <button type="button" aria-expanded={showStatus} onClick={() => setShowStatus(!showStatus)}>
        {showStatus ? "Hide force status" : "Show force status"}
      </button>
      {showStatus ? <ForceStatusPanel slug={campaign.slug} forceId={force.id} /> : null}
      {force.actions.includes("roll_cops_action_points") ? (
        <CopsActionPointsForm campaign={campaign} force={force} qualities={qualities} />
      ) : null}
      {force.battlegroups.map((group) => (
        <section key={group.id} className="battlegroup">
          <h3>
            {group.name}
            {/* "Southern Infantry Brigade" names its kind already: "Brigade" again would double it. */}
            {group.name.toLowerCase().endsWith(group.kind_label.toLowerCase()) ? null : (
              <span className="muted"> {group.kind_label}</span>
            )}
          </h3>
          <ul className="battalions">
            {group.battalions.map((battalion) => (
              <BattalionNode
                key={battalion.id}
                battalion={battalion}
                correctIn={isUmpire ? campaign.slug : undefined}
                historyIn={campaign.slug}
              />
            ))}
          </ul>
        </section>
      ))}
    </li>
  );
}

export function ForcesPage() {
  const { campaign, isUmpire } = useCampaign();
  const oob = useQuery({
    queryKey: queryKeys.oob(campaign.slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/oob/", { params: { path: { campaign_slug: campaign.slug } } })),
  });
  return (
    <section>
      <h1>Order of battle</h1>
      <p className="legend">
        <StatusIcon status="ok" /> OK <StatusIcon status="suppressed" /> Suppressed <StatusIcon status="destroyed" />{" "}
        Destroyed
      </p>
      <QueryView query={oob} what="the order of battle">
        {(data) => (
          <ul className="forces">
            {data.forces.map((force) => (
              <ForceNode key={force.id} force={force} campaign={campaign} isUmpire={isUmpire} qualities={data} />
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
