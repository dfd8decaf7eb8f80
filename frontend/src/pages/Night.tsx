import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { offered } from "../api/campaign";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { useRefreshWhenOperationEnds } from "../api/operations";
import { useArrivalReports } from "../api/day";
import { queryKeys } from "../api/queryKeys";
import { useTerms } from "../api/vocabulary";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { NightOrders } from "../components/NightOrders";
import { SupplyReviewPanel, useSupplyReview } from "../components/SupplyReview";
import { ErrorNotice, QueryView, ProgressBar } from "../components/status";
import { sideName } from "../lib/sides";
import { useCampaign } from "../session";

type Operation = Schemas["Operation"];
const POLL_MS = 1000;

export function OperationProgress({ operation }: { operation: Operation }) {
  const label = `Night phase of day ${operation.day}: ${operation.status_label.toLowerCase()}`;
  return (
    <div className="card" aria-live="polite">
      {/* Players get no step counts: they count the whole campaign's work, both sides' (C-14). */}
      {operation.steps_done === null || operation.steps_total === null ? (
        <p>{label}</p>
      ) : (
        <ProgressBar label={label} done={operation.steps_done} total={operation.steps_total} />
      )}
      {operation.failed ? (
        <p className="error" role="alert">
          The night phase failed{operation.error ? `: ${operation.error}` : "."}
        </p>
      ) : null}
    </div>
  );
}

type Report = Schemas["NightReport"];
type NightReportBody = Schemas["NightReportBody"];
type ArrivalReportBody = Schemas["ArrivalReportBody"];
type ArrivalReportEntry = Schemas["ArrivalReportEntry"];

function NightReportCard({ report, side }: { report: Report; side: string }) {
  // The report's kind says which body it carries (ReportCard chose this card by it).
  const body = report.body as NightReportBody;
  // A side's night counters, shown when the night ran their step (the report holds them then).
  const counters = useTerms("night_counter").filter(({ value }) => typeof body[value as keyof NightReportBody] === "number");
  return (
    <article className="card night-report" aria-label={`Night report of ${side}, day ${report.day}`}>
      <h3>
        {side}: {report.title}
      </h3>
      <dl className="facts">
        <dt>Replacements</dt>
        <dd>
          {body.replacements_returned ?? 0} of {body.replacements_due ?? 0} destroyed stands returned
        </dd>
        <dt>Extra stands lost</dt>
        <dd>{body.extra_stands_lost ?? 0}</dd>
        {counters.map(({ value, label }) => (
          <Fragment key={value}>
            <dt>{label}</dt>
            <dd>{String(body[value as keyof NightReportBody])}</dd>
          </Fragment>
        ))}
        <dt>Activation points</dt>
        <dd>
          {body.activation_points_carried ?? 0} carried, {body.activation_points_lost ?? 0} lost
        </dd>
        {body.divisions?.map((division) => (
          <Fragment key={division.name}>
            <dt>{division.name}</dt>
            <dd>
              {division.carried} of {division.before} activation points carried
            </dd>
          </Fragment>
        ))}
        <dt>Barrage rounds</dt>
        <dd>+{body.barrage_rounds_replenished ?? 0}</dd>
        {body.moved_to_reserve?.length ? (
          <>
            <dt>To reserve</dt>
            <dd>{body.moved_to_reserve.join(", ")}</dd>
          </>
        ) : null}
        {body.forces_removed?.length ? (
          <>
            <dt>Removed in the night (command failed)</dt>
            <dd>{body.forces_removed.join(", ")}</dd>
          </>
        ) : null}
        {body.isolated_battalions?.length ? (
          <>
            <dt>Cut off from supply</dt>
            <dd>{body.isolated_battalions.join(", ")}</dd>
          </>
        ) : null}
        {body.campaign_result ? (
          <>
            <dt>The campaign is over</dt>
            <dd>{body.campaign_result}</dd>
          </>
        ) : null}
      </dl>
      {body.battalions?.length ? (
        <ul className="replacements">
          {body.battalions.map((battalion) => (
            <li key={battalion.code}>
              <strong>{battalion.code}</strong>: {battalion.text}
              <ul>
                {battalion.lines.map((line, index) => (
                  <li key={index} className="line">
                    {line}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

function arrivalOutcome(entry: ArrivalReportEntry): string {
  const parts = [entry.arrival_status_label ?? entry.arrival_status];
  if (entry.zone) parts.push(`at ${entry.zone}`);
  if (entry.enters_on_turn != null) parts.push(`enters on turn ${entry.enters_on_turn}`);
  else if (entry.turns_left != null) parts.push(`${entry.turns_left} turns still to wait`);
  return parts.join(", ");
}

function ArrivalReportCard({ report, side }: { report: Report; side: string }) {
  const { arrivals } = report.body as ArrivalReportBody;
  return (
    <article className="card arrival-report" aria-label={`Arrival report of ${side}, ${report.title}`}>
      <h3>
        {side}: {report.title}
      </h3>
      {arrivals.length ? (
        <ul className="arrivals">
          {arrivals.map((entry) => (
            <li key={entry.force}>
              <strong>{entry.force}</strong>: {arrivalOutcome(entry)}
              <ul>
                {entry.lines.map((line, index) => (
                  <li key={index} className="line">
                    {line}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      ) : (
        <p>No force of this side rolled.</p>
      )}
    </article>
  );
}

/** A report as its kind tells: a night phase's figures, or an arrival roll's forces. */
export function ReportCard({ report, side }: { report: Report; side: string }) {
  return report.kind === "arrivals" ? (
    <ArrivalReportCard report={report} side={side} />
  ) : (
    <NightReportCard report={report} side={side} />
  );
}

/** The arrival reports of the day under way (arrival rolls are made in the day's segments). */
export function ArrivalReports({ campaign }: { campaign: Schemas["Campaign"] }) {
  const day = campaign.current_day;
  const reports = useArrivalReports(campaign.slug, day);
  if (!day) return null;
  return (
    <section aria-labelledby="arrival-reports">
      <h2 id="arrival-reports">Arrival reports of day {day}</h2>
      <QueryView query={reports} what="the arrival reports">
        {(page) =>
          page.results.length ? (
            page.results.map((report) => (
              <ReportCard key={report.id} report={report} side={sideName(campaign, report.side)} />
            ))
          ) : (
            <p>No arrival report of day {day} you may see.</p>
          )
        }
      </QueryView>
    </section>
  );
}

export function NightPage() {
  const { campaign, isUmpire } = useCampaign();
  const slug = campaign.slug;
  const queryClient = useQueryClient();
  const [startKey] = useState(idempotencyKey);
  const [confirming, setConfirming] = useState(false);
  const path = { campaign_slug: slug };

  const operations = useQuery({
    queryKey: queryKeys.operations(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/operations/", {
          params: { path, query: { kind: "night_phase", ordering: "-id", page_size: 1 } },
        }),
      ),
  });
  const latest = operations.data?.results[0];
  const live = useQuery({
    queryKey: queryKeys.operation(slug, latest?.id),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/operations/{id}/", {
          params: { path: { ...path, id: latest?.id ?? "" } },
        }),
      ),
    enabled: latest !== undefined,
    initialData: latest,
    refetchInterval: (query) => (query.state.data?.running ? POLL_MS : false),
  });
  const operation = live.data;
  // The night changed the day, the forces, the supply and the reserves: the day page offers the
  // dawn, not the night's buttons, without a reload.
  useRefreshWhenOperationEnds(operation);
  // Done: neither still to come nor given up.
  const finished = operation !== undefined && !operation.running && !operation.failed;
  const reports = useQuery({
    queryKey: queryKeys.nightReports(slug, operation?.id, finished),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/night-reports/", {
          params: { path, query: { kind: "night_phase", day: operation?.day, page_size: 100 } },
        }),
      ),
    enabled: finished,
  });
  const start = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/operations/", {
          params: { path, header: { "Idempotency-Key": startKey } },
          body: { kind: "night_phase" },
        }),
      ),
    onSuccess: (started) => {
      setConfirming(false);
      queryClient.setQueryData(queryKeys.operations(slug), { count: 1, results: [started] });
      queryClient.setQueryData(queryKeys.operation(slug, started.id), started);
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaign(slug) });
    },
  });

  const today = campaign.current_day;
  const startedToday = latest !== undefined && latest.day === today;
  const supply = useSupplyReview(slug, isUmpire && Boolean(today) && !startedToday);
  return (
    <section>
      <h1>Night phase</h1>
      {isUmpire && !startedToday && today ? <SupplyReviewPanel campaign={campaign} /> : null}
      {isUmpire && !startedToday && today ? <NightOrders campaign={campaign} /> : null}
      {offered(campaign, "run_night") ? (
        <p>
          <button type="button" onClick={() => setConfirming(true)} disabled={start.isPending || confirming}>
            {`Start the night phase of day ${today}…`}
          </button>
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={`Start the night phase of day ${today}?`}
          confirmLabel={start.isPending ? "Starting…" : `Start the night phase of day ${today}`}
          busy={start.isPending}
          onConfirm={() => start.mutate()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            A worker flips suppressions, rolls replacements, carries activation points over and writes each side's
            night report. The night phase cannot be undone.
          </p>
          {supply.data?.warning ? (
            <p className="warning" role="alert">
              {supply.data.warning}
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
      {start.isError ? <ErrorNotice error={start.error} /> : null}
      <QueryView query={operations} what="the night phase">
        {() =>
          operation ? <OperationProgress operation={operation} /> : <p>No night phase has run yet.</p>
        }
      </QueryView>
      {live.isError ? <ErrorNotice error={live.error} /> : null}
      {finished ? (
        <section>
          <h2>Night reports</h2>
          <QueryView query={reports} what="the night reports">
            {(page) =>
              page.results.length ? (
                page.results.map((report) => (
                  <ReportCard key={report.id} report={report} side={sideName(campaign, report.side)} />
                ))
              ) : (
                <p>No night report you may see.</p>
              )
            }
          </QueryView>
        </section>
      ) : null}
      <ArrivalReports campaign={campaign} />
    </section>
  );
}
