/** The umpire's day: dawn with its deployments previewed and confirmed, the day's rolls (weather,
 * wind, initiative, turns), segments and their arrival rolls on the worker, reinforcements, and
 * activation points spent by column. Players and observers read the day and its public rolls. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { useSectors } from "../api/lists";
import { useRefreshWhenOperationEnds } from "../api/operations";
import { queryKeys } from "../api/queryKeys";
import { asRecord } from "../api/types";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { FieldErrors, InputField, fieldErrorsOf } from "../components/FieldErrors";
import { RollCard } from "../components/RollCard";
import { RollOverrideForm } from "../components/RollOverrideForm";
import { TurnField } from "../components/TurnField";
import { ErrorNotice, ProgressBar, QueryView } from "../components/status";
import { sideName } from "../lib/sides";
import { noun, plural } from "../lib/words";
import { useCampaign } from "../session";

type Campaign = Schemas["Campaign"];
type Force = Schemas["ForceTree"];
type Battalion = Schemas["BattalionTree"];
type Deployment = Schemas["DeploymentInputRequest"];
const POLL_MS = 1000;

function useOrderOfBattle(slug: string) {
  return useQuery({
    queryKey: queryKeys.oob(slug),
    queryFn: () => unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/oob/", { params: { path: { campaign_slug: slug } } })),
  });
}

function battalionsOf(forces: readonly Force[]): { battalion: Battalion; force: Force; group: string }[] {
  return forces.flatMap((force) =>
    force.battlegroups.flatMap((group) => group.battalions.map((battalion) => ({ battalion, force, group: group.name }))),
  );
}

function refreshAll(queryClient: ReturnType<typeof useQueryClient>) {
  // A day's write changes the summary, the timeline, the rolls, the order of battle: read them again.
  void queryClient.invalidateQueries();
}

// Dawn -----------------------------------------------------------------------------------------

interface DeploymentDraft {
  deploy: boolean;
  range: string;
  friendly: boolean;
}

function deploymentsOf(drafts: Record<string, DeploymentDraft>): Deployment[] {
  return Object.entries(drafts)
    .filter(([, draft]) => draft.deploy)
    .map(([battalion, draft]) => ({
      battalion,
      range_inches: draft.range.trim() === "" ? Number.NaN : Number(draft.range),
      friendly_intervening: draft.friendly,
    }));
}

function DeploymentPreview({ preview }: { preview: Schemas["DawnPreview"] }) {
  if (!preview.deployments.length) return <p>No battalion leaves reserve: dawn rolls the weather and the first segment only.</p>;
  return (
    <>
      <p className="muted">
        What the deployment chart does ({preview.rule}); the chart is read, not rolled, so the dawn does exactly this.
      </p>
      <ul className="preview" aria-label="Deployment casualties">
        {preview.deployments.map((deployment) => (
          <li key={deployment.battalion} className="card">
            <strong>{deployment.battalion}</strong> {deployment.battalion_name}
            <dl className="facts">
              <dt>Range to the nearest enemy</dt>
              <dd>
                {deployment.range_inches}″{deployment.friendly_intervening ? ", friendly units intervene" : ""}
              </dd>
              {deployment.side_order !== null ? (
                <>
                  <dt>Ordered by</dt>
                  <dd>its side's sealed order, approved</dd>
                </>
              ) : null}
              <dt>Chart</dt>
              <dd>{deployment.cell}</dd>
              <dt>Casualties</dt>
              <dd>
                {deployment.destroyed + deployment.suppressed + deployment.retreat_inches === 0 ? (
                  "none"
                ) : (
                  <ul className="plain">
                    {deployment.stands_destroyed.length ? <li>destroyed: {deployment.stands_destroyed.join(", ")}</li> : null}
                    {deployment.stands_suppressed.length ? (
                      <li>suppressed: {deployment.stands_suppressed.join(", ")}</li>
                    ) : null}
                    {deployment.retreat_inches ? <li>retreats {deployment.retreat_inches}″</li> : null}
                  </ul>
                )}
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Dawn the next day: battalions leaving reserve picked with their range to the nearest enemy,
 * the deployment chart's casualties previewed, then a confirmation (dawn cannot be undone). */
export function DawnForm({ campaign, forces }: { campaign: Campaign; forces: readonly Force[] }) {
  const queryClient = useQueryClient();
  const id = useId();
  const next = (campaign.current_day ?? 0) + 1;
  const path = { campaign_slug: campaign.slug };
  const reserves = battalionsOf(forces).filter(({ battalion }) => battalion.in_reserve);
  const [drafts, setDrafts] = useState<Record<string, DeploymentDraft>>({});
  const [confirming, setConfirming] = useState(false);
  const [dawnKey] = useState(idempotencyKey);
  const deployments = deploymentsOf(drafts);
  const body = { deployments };
  const preview = useMutation({
    mutationFn: (sent: { deployments: Deployment[] }) =>
      unwrap(api.POST("/api/v1/campaigns/{campaign_slug}/days/dawn-preview/", { params: { path }, body: sent })),
  });
  const dawn = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/days/dawn/", {
          params: { path, header: { "Idempotency-Key": dawnKey } },
          body,
        }),
      ),
    onSuccess: () => {
      setConfirming(false);
      refreshAll(queryClient);
    },
  });
  // The dawn applies what the preview showed only while the form still says the same.
  const previewed = preview.isSuccess && JSON.stringify(preview.variables) === JSON.stringify(body);
  const errors = fieldErrorsOf(preview.error ?? dawn.error);
  const draftOf = (code: string): DeploymentDraft => drafts[code] ?? { deploy: false, range: "", friendly: false };
  const change = (code: string, patch: Partial<DeploymentDraft>) =>
    setDrafts({ ...drafts, [code]: { ...draftOf(code), ...patch } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    preview.mutate(body);
  };
  return (
    <section aria-labelledby={`${id}-dawn`} className="card">
      <h2 id={`${id}-dawn`}>Dawn of day {next}</h2>
      <form onSubmit={submit} aria-label={`Dawn of day ${next}`}>
        {reserves.length ? (
          <fieldset>
            <legend>Battalions leaving reserve</legend>
            {reserves.map(({ battalion, force }) => {
              const code = battalion.code;
              const draft = draftOf(code);
              const index = deployments.findIndex((d) => d.battalion === code);
              const at = `deployments[${index}]`;
              const rangeErrors = index >= 0 ? [...(errors[`${at}.range_inches`] ?? [])] : [];
              const battalionErrors = index >= 0 ? [...(errors[`${at}.battalion`] ?? [])] : [];
              return (
                <div key={code} className="deployment" role="group" aria-label={`Deploy ${code}`}>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={draft.deploy}
                      aria-describedby={`${id}-${code}-errors`}
                      onChange={(e) => change(code, { deploy: e.target.checked })}
                    />{" "}
                    {code} {battalion.name} <span className="muted">({force.name})</span>
                  </label>
                  <FieldErrors id={`${id}-${code}-errors`} messages={battalionErrors} />
                  {draft.deploy ? (
                    <div className="inline-fields">
                      <InputField
                        id={`${id}-${code}-range`}
                        label="Range to the nearest enemy (inches)"
                        messages={rangeErrors}
                        type="number"
                        min={0}
                        step="any"
                        inputMode="decimal"
                        value={draft.range}
                        onChange={(e) => change(code, { range: e.target.value })}
                      />
                      <label className="check">
                        <input
                          type="checkbox"
                          checked={draft.friendly}
                          onChange={(e) => change(code, { friendly: e.target.checked })}
                        />{" "}
                        Friendly units intervene
                      </label>
                    </div>
                  ) : null}
                </div>
              );
            })}
          </fieldset>
        ) : (
          <p>No battalion is in reserve.</p>
        )}
        <p className="actions">
          <button type="submit" disabled={preview.isPending}>
            Preview the dawn
          </button>
          <button type="button" disabled={!previewed || dawn.isPending} onClick={() => setConfirming(true)}>
            Dawn day {next}…
          </button>
        </p>
        {!previewed ? <p className="muted">Preview the dawn to see its deployment casualties before you dawn.</p> : null}
      </form>
      {preview.isError ? <ErrorNotice error={preview.error} /> : null}
      {previewed && preview.data ? <DeploymentPreview preview={preview.data} /> : null}
      {confirming ? (
        <ConfirmDialog
          title={`Dawn day ${next}?`}
          confirmLabel={`Dawn day ${next}`}
          busy={dawn.isPending}
          onConfirm={() => dawn.mutate()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The weather, the first segment's initiative, wind and turns are rolled
            {deployments.length
              ? `, and ${deployments.map((d) => d.battalion).join(", ")} leave reserve with the casualties shown`
              : ""}
            . A dawn cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      {dawn.isError ? <ErrorNotice error={dawn.error} /> : null}
    </section>
  );
}

// The day under way ----------------------------------------------------------------------------

/** A roll as one line that opens to its dice; the umpire may override it there. */
export function RollLine({ roll, slug, isUmpire }: { roll: Schemas["Roll"]; slug: string; isUmpire: boolean }) {
  const title = roll.output?.title ?? (roll.override_of ? "Umpire's override" : roll.procedure);
  const outcome = roll.output?.outcome_text ?? roll.line ?? "";
  return (
    <li>
      <details className="roll-line">
        <summary>
          <strong>{title}</strong>
          {roll.segment_label ? <span className="muted"> · {roll.segment_label}</span> : null}: {outcome}
          {roll.override_of ? <span className="tag">override</span> : null}
        </summary>
        <RollCard roll={roll} open />
        {isUmpire && !roll.override_of ? (
          <details className="override-box">
            <summary>Override this roll</summary>
            <RollOverrideForm slug={slug} roll={roll} />
          </details>
        ) : null}
      </details>
    </li>
  );
}

function DayRolls({ campaign, day, isUmpire }: { campaign: Campaign; day: number; isUmpire: boolean }) {
  const query = { day, table: true, page_size: 100 };
  const rolls = useQuery({
    queryKey: queryKeys.rolls(campaign.slug, query),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/rolls/", {
          params: { path: { campaign_slug: campaign.slug }, query },
        }),
      ),
  });
  return (
    <QueryView query={rolls} what="the day's rolls">
      {(page) => {
        // The table's rolls (weather, initiative, wind, turns); units' rolls are in the roll log.
        const table = page.results;
        return table.length ? (
          <ul className="roll-lines" aria-label={`Rolls of day ${day}`}>
            {table.map((roll) => (
              <RollLine key={roll.id} roll={roll} slug={campaign.slug} isUmpire={isUmpire} />
            ))}
          </ul>
        ) : (
          <p>No roll of the day yet.</p>
        );
      }}
    </QueryView>
  );
}

function ArrivalProgress({ campaign, day }: { campaign: Campaign; day: number }) {
  const slug = campaign.slug;
  const operations = useQuery({
    queryKey: queryKeys.arrivalOperations(slug, day),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/operations/", {
          params: { path: { campaign_slug: slug }, query: { kind: "arrivals", day, ordering: "-id", page_size: 1 } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.results.some((operation) => operation.status === "pending" || operation.status === "running")
        ? POLL_MS
        : false,
  });
  const latest = operations.data?.results[0];
  const done = latest?.status === "done";
  // No list left on "Rolling for arrival" once the rolls end.
  useRefreshWhenOperationEnds(latest);
  const reports = useQuery({
    queryKey: queryKeys.arrivalReports(slug, day),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/night-reports/", {
          params: { path: { campaign_slug: slug }, query: { kind: "arrivals", day, page_size: 100 } },
        }),
      ),
    enabled: done,
  });
  if (!latest) return null;
  const label = `Arrival rolls of the ${(latest.segment_label ?? "segment").toLowerCase()}: ${latest.status_label.toLowerCase()}`;
  return (
    <div className="card" aria-live="polite">
      {latest.steps_done === null || latest.steps_total === null ? (
        <p>{label}</p>
      ) : (
        <ProgressBar label={label} done={latest.steps_done} total={latest.steps_total} />
      )}
      {latest.status === "failed" ? (
        <p className="error" role="alert">
          The arrival rolls failed{latest.error ? `: ${latest.error}` : "."}
        </p>
      ) : null}
      {done && reports.data ? (
        <ul className="arrivals" aria-label="Arrivals">
          {reports.data.results.flatMap((report) =>
            (asRecord(report.body).arrivals as Schemas["ArrivalReportEntry"][] | undefined ?? []).map((entry) => (
              <li key={`${report.id}-${entry.force}`}>
                <strong>{entry.force}</strong> ({sideName(campaign, report.side)}): {entry.arrival_status_label ?? entry.arrival_status}
                {entry.zone ? ` at ${entry.zone}` : ""}
                {entry.enters_on_turn != null ? `, enters on turn ${entry.enters_on_turn}` : ""}
              </li>
            )),
          )}
        </ul>
      ) : null}
    </div>
  );
}

function DayUnderWay({ campaign, isUmpire }: { campaign: Campaign; isUmpire: boolean }) {
  const queryClient = useQueryClient();
  const number = campaign.current_day ?? 0;
  const slug = campaign.slug;
  const day = useQuery({
    queryKey: queryKeys.day(slug, number),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/days/{number}/", {
          params: { path: { campaign_slug: slug, number: String(number) } },
        }),
      ),
  });
  const advance = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/days/{number}/advance-segment/", {
          params: { path: { campaign_slug: slug, number: String(number) }, header: { "Idempotency-Key": idempotencyKey() } },
        }),
      ),
    onSuccess: () => refreshAll(queryClient),
  });
  return (
    <section aria-labelledby="day-under-way" className="card">
      <h2 id="day-under-way">
        Day {number}
        {campaign.day_status_label ? `: ${campaign.day_status_label.toLowerCase()}` : ""}
      </h2>
      <QueryView query={day} what="the day">
        {(data) => (
          <>
            <dl className="facts">
              <dt>Date</dt>
              <dd>{data.date}</dd>
              <dt>Weather</dt>
              <dd>{data.weather_label || "not rolled"}</dd>
            </dl>
            {data.segments.length ? (
              <div className="table-wrap">
                <table aria-label="Segments">
                  <thead>
                    <tr>
                      <th scope="col">Segment</th>
                      <th scope="col">Turns</th>
                      <th scope="col">Initiative</th>
                      <th scope="col">Wind</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.segments.map((segment) => (
                      <tr key={segment.id}>
                        <th scope="row">{segment.segment_label}</th>
                        <td>{segment.turns ?? "—"}</td>
                        <td>{sideName(campaign, segment.initiative_side)}</td>
                        <td>{segment.wind_text || "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </>
        )}
      </QueryView>
      <h3>The day's rolls</h3>
      <DayRolls campaign={campaign} day={number} isUmpire={isUmpire} />
      {isUmpire && campaign.day_status === "day" ? (
        <p className="actions">
          <button type="button" onClick={() => advance.mutate()} disabled={advance.isPending}>
            Open the next segment
          </button>
        </p>
      ) : null}
      {advance.isError ? <ErrorNotice error={advance.error} /> : null}
      {isUmpire ? <ArrivalProgress campaign={campaign} day={number} /> : null}
    </section>
  );
}

// Reinforcements -------------------------------------------------------------------------------


function PostponeForm({ slug, force, today }: { slug: string; force: Schemas["Reinforcement"]; today: number }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [day, setDay] = useState(String(Math.max(force.arrival_day ?? 0, today) + 1));
  const postpone = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/reinforcements/{id}/postpone/", {
          params: { path: { campaign_slug: slug, id: force.id }, header: { "Idempotency-Key": idempotencyKey() } },
          body: { day: Number(day) },
        }),
      ),
    onSuccess: () => refreshAll(queryClient),
  });
  const errors = fieldErrorsOf(postpone.error).day ?? [];
  return (
    <form
      className="inline-fields"
      aria-label={`Postpone ${force.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        postpone.mutate();
      }}
    >
      <InputField
        id={`${id}-day`}
        label="To day"
        messages={errors}
        type="number"
        min={1}
        value={day}
        onChange={(e) => setDay(e.target.value)}
      />
      <button type="submit" disabled={postpone.isPending}>
        Postpone
      </button>
      {postpone.isError && !errors.length ? <ErrorNotice error={postpone.error} /> : null}
    </form>
  );
}

/** Schedule a force off the table to arrive on a day, at one of the campaign's sectors. */
export function ScheduleForm({ campaign, forces }: { campaign: Campaign; forces: Schemas["Reinforcement"][] }) {
  const queryClient = useQueryClient();
  const id = useId();
  const candidates = forces.filter((force) => force.actions.includes("schedule"));
  const sectors = useSectors(campaign.slug, candidates.length > 0);
  const [forceId, setForceId] = useState("");
  const [day, setDay] = useState(String(Math.max(campaign.current_day ?? 1, 1)));
  const [zone, setZone] = useState("");
  const schedule = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/reinforcements/", {
          params: { path: { campaign_slug: campaign.slug }, header: { "Idempotency-Key": idempotencyKey() } },
          body: { force_id: forceId, day: Number(day), zone },
        }),
      ),
    onSuccess: () => refreshAll(queryClient),
  });
  const errors = fieldErrorsOf(schedule.error);
  if (!candidates.length) return null;
  return (
    <form
      aria-label="Schedule a reinforcement"
      onSubmit={(event) => {
        event.preventDefault();
        schedule.mutate();
      }}
    >
      <h3>Schedule a reinforcement</h3>
      <div className="inline-fields">
        <div className="field">
          <label htmlFor={`${id}-force`}>Force</label>
          <select
            id={`${id}-force`}
            value={forceId}
            aria-describedby={`${id}-force-errors`}
            onChange={(e) => setForceId(e.target.value)}
          >
            <option value="">choose a force</option>
            {candidates.map((force) => (
              <option key={force.id} value={force.id}>
                {force.name} ({sideName(campaign, force.side)}, {force.arrival_status_label.toLowerCase()})
              </option>
            ))}
          </select>
          <FieldErrors id={`${id}-force-errors`} messages={[...(errors.force_id ?? []), ...(errors.force ?? [])]} />
        </div>
        <InputField
          id={`${id}-day`}
          label="Due on day"
          messages={errors.day ?? []}
          type="number"
          min={1}
          value={day}
          onChange={(e) => setDay(e.target.value)}
        />
        <div className="field">
          <label htmlFor={`${id}-zone`}>Entry zone</label>
          <select
            id={`${id}-zone`}
            value={zone}
            aria-describedby={`${id}-zone-errors`}
            onChange={(e) => setZone(e.target.value)}
          >
            <option value="">none yet</option>
            {(sectors.data?.results ?? []).map((sector) => (
              <option key={sector.id} value={sector.name}>
                {sector.name}
              </option>
            ))}
          </select>
          <FieldErrors id={`${id}-zone-errors`} messages={errors.zone ?? []} />
        </div>
        <button type="submit" disabled={schedule.isPending || !forceId}>
          Schedule
        </button>
      </div>
      {schedule.isError && !Object.keys(errors).length ? <ErrorNotice error={schedule.error} /> : null}
    </form>
  );
}

function Reinforcements({ campaign }: { campaign: Campaign }) {
  const slug = campaign.slug;
  const reinforcements = useQuery({
    queryKey: queryKeys.reinforcements(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/reinforcements/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 200, ordering: "arrival_day" } },
        }),
      ),
  });
  return (
    <section aria-labelledby="reinforcements" className="card">
      <h2 id="reinforcements">Reinforcements</h2>
      <QueryView query={reinforcements} what="the reinforcements">
        {(page) => (
          <>
            {page.results.length ? (
              <ul className="reinforcements">
                {page.results.map((force) => (
                  <li key={force.id}>
                    <strong>{force.name}</strong> <span className="muted">({sideName(campaign, force.side)})</span>:{" "}
                    {force.arrival_status_label}
                    {force.arrival_day ? `, day ${force.arrival_day}` : ""}
                    {force.arrival_zone ? `, at ${force.arrival_zone}` : ""}
                    {force.arrival_attempts ? `, ${plural(force.arrival_attempts, "attempt")}` : ""}
                    {force.actions.includes("postpone") ? (
                      <PostponeForm slug={slug} force={force} today={campaign.current_day ?? 0} />
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p>No force is off the table.</p>
            )}
            <ScheduleForm campaign={campaign} forces={page.results} />
          </>
        )}
      </QueryView>
    </section>
  );
}

// Activation points ----------------------------------------------------------------------------

const COLUMNS: Schemas["ColumnEnum"][] = ["1 Bn", "1 Bg", "2 Bgs", "3 Bgs"];
const START_OF_DAY = "Activated at Start of Day";
const DURING_DAY = "Activated During Day";

function useActivationCosts() {
  return useQuery({
    queryKey: queryKeys.rule("gb.activation_cost"),
    queryFn: () =>
      unwrap(api.GET("/api/v1/rules/{key}/", { params: { path: { key: "gb.activation_cost" }, query: { kind: "table" } } })),
    staleTime: Infinity,
  });
}

/** The cost of a column at a turn, as the rules catalog's chart gives it (the API books it). */
function costOf(chart: unknown, column: string, turn: number): number | undefined {
  const cost = asRecord(asRecord(chart)[column])[turn === 0 ? START_OF_DAY : DURING_DAY];
  return typeof cost === "number" ? cost : undefined;
}

/** Spend a side's activation points on one column of the chart for a turn: the side's pool, the
 * columns with their costs, and the side's battalions by battlegroup. */
export function ActivationForm({ campaign, forces }: { campaign: Campaign; forces: readonly Force[] }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [sideId, setSideId] = useState(campaign.sides[0]?.id ?? 0);
  // The turns the segment under way plays, as the API counts them through the day.
  const turns = campaign.segment_turns;
  const [turn, setTurn] = useState(turns[0] ?? 0);
  const [column, setColumn] = useState<Schemas["ColumnEnum"]>("1 Bn");
  const [codes, setCodes] = useState<string[]>([]);
  const costs = useActivationCosts();
  const side = campaign.sides.find((s) => s.id === sideId);
  const spend = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/sides/{side_pk}/activation-spends/", {
          params: { path: { campaign_slug: campaign.slug, side_pk: sideId }, header: { "Idempotency-Key": idempotencyKey() } },
          body: { column, turn, battalion_codes: codes },
        }),
      ),
    onSuccess: () => {
      setCodes([]);
      refreshAll(queryClient);
    },
  });
  const errors = fieldErrorsOf(spend.error);
  const codeErrors = Object.entries(errors)
    .filter(([field]) => field.startsWith("battalion_codes"))
    .flatMap(([, messages]) => messages);
  const ownForces = forces.filter((force) => force.side === sideId);
  const price = costOf(costs.data?.chart, column, turn);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    spend.mutate();
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
          {COLUMNS.map((choice) => {
            const cost = costOf(costs.data?.chart, choice, turn);
            return (
              <label key={choice} className="check">
                <input
                  type="radio"
                  name={`${id}-column`}
                  value={choice}
                  checked={column === choice}
                  onChange={() => setColumn(choice)}
                />{" "}
                {choice} <span className="muted">{cost === undefined ? "" : `costs ${cost} AP`}</span>
              </label>
            );
          })}
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

// The page -------------------------------------------------------------------------------------

export function DayPage() {
  const { campaign, isUmpire } = useCampaign();
  const oob = useOrderOfBattle(campaign.slug);
  const today = campaign.current_day ?? 0;
  const canDawn = campaign.status === "active" && (today === 0 || campaign.day_status === "done");
  return (
    <section>
      <h1>The day</h1>
      {campaign.status === "setup" ? <p>The campaign is being set up: start it on the dashboard.</p> : null}
      {isUmpire && canDawn ? (
        <QueryView query={oob} what="the reserves">
          {(data) => <DawnForm campaign={campaign} forces={data.forces} />}
        </QueryView>
      ) : null}
      {today ? <DayUnderWay campaign={campaign} isUmpire={isUmpire} /> : null}
      {isUmpire && campaign.day_status === "day" ? (
        <QueryView query={oob} what="the battalions">
          {(data) => <ActivationForm campaign={campaign} forces={data.forces} />}
        </QueryView>
      ) : null}
      {isUmpire ? <Reinforcements campaign={campaign} /> : null}
    </section>
  );
}
