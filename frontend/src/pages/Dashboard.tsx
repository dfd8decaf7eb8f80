import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { offered } from "../api/campaign";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { newestEventsQuery } from "../api/dashboard";
import { useAdvanceSegment } from "../api/day";
import { queryKeys } from "../api/queryKeys";
import { LoadMore } from "../components/LoadMore";
import { PaperLinks } from "../components/Papers";
import { ErrorNotice, Masked, QueryView } from "../components/status";
import { sideName } from "../lib/sides";
import { TableWrap } from "../components/TableWrap";
import { UmpireTodo } from "../components/UmpireTodo";
import { VictoryStanding } from "../components/Victory";
import { useCampaign } from "../session";

function Timeline({ slug }: { slug: string }) {
  const events = useInfiniteQuery(newestEventsQuery(slug));
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Event timeline</h2>
      <p className="muted">Newest first.</p>
      <QueryView query={events} what="the timeline">
        {(data) => {
          const entries = data.pages.flatMap((page) => page.results);
          return entries.length ? (
            <ol className="timeline">
              {entries.map((event) => (
                <li key={event.id}>
                  <span className="muted">{event.day ? `Day ${event.day}` : "Before day 1"}</span> {event.message}
                  {event.actor ? <span className="muted"> ({event.actor})</span> : null}
                </li>
              ))}
            </ol>
          ) : (
            <p>Nothing has happened yet.</p>
          );
        }}
      </QueryView>
      <LoadMore query={events} />
    </section>
  );
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A moment as the API sends it (the club's wall clock, with its UTC offset), read on that clock:
 * "Wed 25 Nov 2026, 09:00" whatever the browser's time zone. */
export function clubTime(moment: string): string {
  const [date = "", time = ""] = moment.split("T");
  const [year = 0, month = 1, day = 1] = date.split("-").map(Number);
  const weekday = WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  return `${weekday} ${day} ${MONTHS[month - 1]} ${year}, ${time.slice(0, 5)}`;
}

/** The umpire's day controls, as the campaign offers them now: start the campaign, go to the next
 * day's dawn, open the next segment. */
export function DayControls({ campaign }: { campaign: Schemas["Campaign"] }) {
  const queryClient = useQueryClient();
  const path = { campaign_slug: campaign.slug };
  const header = () => ({ "Idempotency-Key": idempotencyKey() });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.campaign(campaign.slug) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.events(campaign.slug) });
  };
  const start = useMutation({
    mutationFn: () =>
      unwrap(api.POST("/api/v1/campaigns/{campaign_slug}/start/", { params: { path, header: header() } })),
    onSuccess: refresh,
  });
  const advance = useAdvanceSegment(campaign, refresh);
  const busy = start.isPending || advance.isPending;
  const failed = [start, advance].find((mutation) => mutation.isError);
  const startLabel = offered(campaign, "start");
  const dawnLabel = offered(campaign, "dawn");
  const advanceLabel = offered(campaign, "open_next_segment");
  return (
    <section aria-labelledby="day-controls" className="card">
      <h2 id="day-controls">Umpire</h2>
      <p className="actions">
        {startLabel ? (
          <button type="button" onClick={() => start.mutate()} disabled={busy}>
            {startLabel}
          </button>
        ) : null}
        {dawnLabel ? (
          // Dawn is previewed and confirmed on the day's page: it cannot be undone.
          <Link to={`/campaigns/${campaign.slug}/day`}>{dawnLabel}…</Link>
        ) : null}
        {advanceLabel ? (
          <button type="button" onClick={() => advance.mutate()} disabled={busy}>
            {advanceLabel}
          </button>
        ) : null}
      </p>
      {failed ? <ErrorNotice error={failed.error} /> : null}
    </section>
  );
}

export function DashboardPage() {
  const { campaign, isUmpire } = useCampaign();
  return (
    <section>
      <h1>{campaign.name}</h1>
      <p className="muted">
        {campaign.theatre_label}, {campaign.season_label.toLowerCase()} {campaign.year} · {campaign.status_label} · you are{" "}
        {campaign.role_label.toLowerCase()}
        {campaign.side ? ` (${sideName(campaign, campaign.side)})` : ""}
      </p>
      {isUmpire ? <UmpireTodo campaign={campaign} /> : null}
      {isUmpire ? <DayControls campaign={campaign} /> : null}
      <PaperLinks papers={campaign.papers} />
      <dl className="facts summary">
        <dt>Day</dt>
        <dd>{campaign.current_day || "not started"}</dd>
        <dt>Segment</dt>
        <dd>{campaign.current_segment_label || "—"}</dd>
        <dt>Turns</dt>
        <dd>
          <Masked value={campaign.turns} hidden="—" />
        </dd>
        <dt>Weather</dt>
        <dd>
          <Masked value={campaign.weather_label} hidden="—" />
        </dd>
        <dt>Wind</dt>
        <dd>{campaign.wind_text || "—"}</dd>
        <dt>Initiative</dt>
        <dd>{sideName(campaign, campaign.initiative_side)}</dd>
        <dt>Next club night</dt>
        <dd>
          {/* When the club schedule next starts the night phase: the moment its beat acts on. */}
          <Masked value={campaign.next_night_phase && clubTime(campaign.next_night_phase)} hidden="not scheduled" />
        </dd>
      </dl>
      <h2>Sides</h2>
      <TableWrap label="Sides">
        <table>
          <thead>
            <tr>
              <th scope="col">Side</th>
              <th scope="col">Activation points</th>
              <th scope="col">Barrage rounds</th>
              <th scope="col">Barrage templates (in use)</th>
            </tr>
          </thead>
          <tbody>
            {campaign.sides.map((side) => (
              <tr key={side.id}>
                <th scope="row">{side.name}</th>
                <td>
                  <Masked value={side.activation_points} hidden="hidden" />
                  {side.activation_cap != null ? ` / ${side.activation_cap}` : ""}
                </td>
                <td>
                  <Masked value={side.barrage_rounds} hidden="hidden" />
                </td>
                <td>
                  <Masked value={side.barrage_templates} hidden="hidden" />
                  {side.barrage_templates_in_use != null ? ` (${side.barrage_templates_in_use})` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <VictoryStanding campaign={campaign} />
      <Timeline slug={campaign.slug} />
    </section>
  );
}
