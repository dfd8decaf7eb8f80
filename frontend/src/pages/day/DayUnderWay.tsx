/** The day under way: its date, weather and segments, the table's rolls (the umpire may override
 * them), the next segment when the campaign offers it, and the segment's arrival rolls. */
import { offered } from "../../api/campaign";
import { type Schemas } from "../../api/client";
import { useAdvanceSegment, useArrivalReports, useDay, useDayRolls, useLatestArrivals } from "../../api/day";
import { useRefreshWhenOperationEnds } from "../../api/operations";
import { asRecord } from "../../api/types";
import { RollCard } from "../../components/RollCard";
import { RollOverrideForm } from "../../components/RollOverrideForm";
import { ErrorNotice, ProgressBar, QueryView } from "../../components/status";
import { sideName } from "../../lib/sides";

type Campaign = Schemas["Campaign"];

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
  const rolls = useDayRolls(campaign.slug, day);
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
  const operations = useLatestArrivals(slug, day);
  const latest = operations.data?.results[0];
  // Done: neither still to come nor given up.
  const done = latest !== undefined && !latest.running && !latest.failed;
  // No list left on "Rolling for arrival" once the rolls end.
  useRefreshWhenOperationEnds(latest);
  const reports = useArrivalReports(slug, day, done);
  if (!latest) return null;
  const label = `Arrival rolls of the ${(latest.segment_label ?? "segment").toLowerCase()}: ${latest.status_label.toLowerCase()}`;
  return (
    <div className="card" aria-live="polite">
      {latest.steps_done === null || latest.steps_total === null ? (
        <p>{label}</p>
      ) : (
        <ProgressBar label={label} done={latest.steps_done} total={latest.steps_total} />
      )}
      {latest.failed ? (
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

export function DayUnderWay({ campaign, isUmpire }: { campaign: Campaign; isUmpire: boolean }) {
  const number = campaign.current_day ?? 0;
  const day = useDay(campaign.slug, number);
  const advance = useAdvanceSegment(campaign);
  const advanceLabel = offered(campaign, "open_next_segment");
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
      {advanceLabel ? (
        <p className="actions">
          <button type="button" onClick={() => advance.mutate()} disabled={advance.isPending}>
            {advanceLabel}
          </button>
        </p>
      ) : null}
      {advance.isError ? <ErrorNotice error={advance.error} /> : null}
      {isUmpire ? <ArrivalProgress campaign={campaign} day={number} /> : null}
    </section>
  );
}

