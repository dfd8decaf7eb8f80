import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { api, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { Masked, QueryView } from "../components/status";
import { useVocabulary } from "../api/vocabulary";
import { sideColours } from "../lib/map";
import { standTypeColour } from "../lib/palette";
import { TableWrap } from "../components/TableWrap";
import { useCampaign } from "../session";

type Statistics = Schemas["Statistics"];
type Counts = Schemas["TallyCounts"];
type SideDay = Statistics["days"][number]["sides"][number];
type FigureKey = Statistics["figures"][number]["key"] & keyof SideDay;

function tally(day: Statistics["days"][number], sideId: number) {
  return day.sides.find((entry) => entry.side === sideId);
}

/** Stands in action: ok or suppressed, on the table. A tally recorded before the API counted
 * that has no `in_action`: its ok and suppressed stands are all there is. */
export function inAction(counts: Counts): number {
  return counts.in_action ?? counts.ok + counts.suppressed;
}

/** One side's bars: stands in action per day, one series per stand type with its label and colour. */
export function strengthSeries(stats: Statistics, side: Statistics["sides"][number]) {
  const rows = stats.days.map((day) => {
    const strength = tally(day, side.id)?.strength;
    const row: Record<string, number | string | null> = { day: `Day ${day.day}` };
    for (const [type, counts] of Object.entries(strength ?? {})) row[type] = inAction(counts);
    return row;
  });
  const labels = Object.assign({}, ...stats.days.map((day) => tally(day, side.id)?.strength_labels ?? {})) as Record<
    string,
    string
  >;
  const series = Object.entries(labels).map(([type, label]) => ({ type, label, colour: standTypeColour(type) }));
  const hidden = stats.days.length > 0 && stats.days.every((day) => !tally(day, side.id)?.strength);
  return { rows, series, hidden };
}

function StrengthChart({ stats, side }: { stats: Statistics; side: Statistics["sides"][number] }) {
  const { rows, series, hidden } = strengthSeries(stats, side);
  return (
    <figure className="chart" aria-label={`Strength of ${side.name}`}>
      <figcaption>{side.name}: stands in action (on the table) by type</figcaption>
      {hidden ? (
        <p className="masked">hidden</p>
      ) : (
        <ResponsiveContainer width="100%" height={260}>
          <BarChart data={rows}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Legend />
            {series.map(({ type, label, colour }) => (
              <Bar key={type} dataKey={type} name={label} stackId="strength" fill={colour} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}

function PoolsChart({ stats }: { stats: Statistics }) {
  const colours = sideColours(stats.sides, useVocabulary().data?.side_colours);
  const rows = stats.days.map((day) => {
    const row: Record<string, number | string | null> = { day: `Day ${day.day}` };
    for (const side of stats.sides) {
      const entry = tally(day, side.id);
      row[`${side.id}-ap`] = entry?.activation_points ?? null;
      row[`${side.id}-br`] = entry?.barrage_rounds ?? null;
    }
    return row;
  });
  return (
    <figure className="chart" aria-label="Activation points and barrage rounds">
      <figcaption>Activation points and barrage rounds per side at dawn</figcaption>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={rows}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="day" />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend />
          {/* A side's colour for both its lines; barrage rounds dashed. */}
          {stats.sides.flatMap((side) => [
            <Line
              key={`${side.id}-ap`}
              dataKey={`${side.id}-ap`}
              name={`${side.name}: activation points`}
              isAnimationActive={false}
              stroke={colours.get(side.id)}
            />,
            <Line
              key={`${side.id}-br`}
              dataKey={`${side.id}-br`}
              name={`${side.name}: barrage rounds`}
              isAnimationActive={false}
              stroke={colours.get(side.id)}
              strokeDasharray="5 3"
            />,
          ])}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** The numbers behind the charts, for screen readers and small screens. */
export function StatisticsTable({ stats }: { stats: Statistics }) {
  return (
    <TableWrap label="Per side and day">
      <table className="stacked">
        <caption>Per side and day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Side</th>
            <th scope="col">Activation points</th>
            <th scope="col">Barrage rounds</th>
            <th scope="col">Stands in action</th>
            <th scope="col">Stands ok / suppressed / destroyed</th>
          </tr>
        </thead>
        <tbody>
          {stats.days.flatMap((day) =>
            stats.sides.map((side) => {
              const entry = tally(day, side.id);
              const counts = entry?.strength ? Object.values(entry.strength) : null;
              const sum = (count: (c: Counts) => number) =>
                (counts ?? []).reduce((total, c) => total + count(c), 0);
              return (
                <tr key={`${day.day}-${side.id}`}>
                  <td data-label="Day">{day.day}</td>
                  <th scope="row" data-label="Side">
                    {side.name}
                  </th>
                  <td data-label="Activation points">
                    <Masked value={entry?.activation_points} hidden="hidden" />
                  </td>
                  <td data-label="Barrage rounds">
                    <Masked value={entry?.barrage_rounds} hidden="hidden" />
                  </td>
                  <td data-label="Stands in action">
                    {counts ? sum(inAction) : <Masked value={null} hidden="hidden" />}
                  </td>
                  <td data-label="Stands ok / suppressed / destroyed">
                    {counts ? (
                      `${sum((c) => c.ok)} / ${sum((c) => c.suppressed)} / ${sum((c) => c.destroyed)}`
                    ) : (
                      <Masked value={null} hidden="hidden" />
                    )}
                  </td>
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** Malta's division pools at each dawn: what each division carried over the night. A side whose
 * pools the reader may not see (an enemy's, fog of war) has none listed, so no row at all. */
export function DivisionPoolsTable({ stats }: { stats: Statistics }) {
  const rows = stats.days.flatMap((day) =>
    stats.sides.flatMap((side) =>
      Object.entries(tally(day, side.id)?.division_activation_points ?? {}).map(([division, points]) => ({
        key: `${day.day}-${side.id}-${division}`,
        day: day.day,
        side: side.name,
        division,
        points,
      })),
    ),
  );
  if (!rows.length) return null;
  return (
    <TableWrap label="Division activation pools at dawn">
      <table className="stacked">
        <caption>Division activation pools at dawn (carried over the night)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Side</th>
            <th scope="col">Division</th>
            <th scope="col">Activation points</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td data-label="Day">{row.day}</td>
              <td data-label="Side">{row.side}</td>
              <th scope="row" data-label="Division">
                {row.division}
              </th>
              <td data-label="Activation points">{row.points}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The API's words for a figure (``figures``), so the legends say what the API says. */
function titleOf(stats: Statistics, key: string): string {
  return stats.figures.find((figure) => figure.key === key)?.title ?? key;
}

/** A day's figure per side, one series a side and figure: null where hidden (no bar, no point). */
export function figureSeries(stats: Statistics, keys: readonly FigureKey[]) {
  const rows = stats.days.map((day) => {
    const row: Record<string, number | string | null> = { day: `Day ${day.day}` };
    for (const side of stats.sides) {
      const entry = tally(day, side.id);
      for (const key of keys) row[`${side.id}-${key}`] = (entry?.[key] as number | null | undefined) ?? null;
    }
    return row;
  });
  const series = stats.sides.flatMap((side) =>
    keys.map((key, index) => ({
      dataKey: `${side.id}-${key}`,
      name: `${side.name}: ${titleOf(stats, key).toLowerCase()}`,
      side,
      index,
    })),
  );
  return { rows, series };
}

const LOSSES: readonly FigureKey[] = ["stands_lost", "stands_replaced"];
const GROUND: readonly FigureKey[] = ["sectors_held", "victory_points"];

function LossesChart({ stats }: { stats: Statistics }) {
  const colours = sideColours(stats.sides, useVocabulary().data?.side_colours);
  const { rows, series } = figureSeries(stats, LOSSES);
  return (
    <figure className="chart" aria-label="Stands lost and replaced">
      <figcaption>Stands lost and replaced per side and day</figcaption>
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={rows}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="day" />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend />
          {/* A side's colour for both its bars; its replacements paler. */}
          {series.map(({ dataKey, name, side, index }) => (
            <Bar
              key={dataKey}
              dataKey={dataKey}
              name={name}
              fill={colours.get(side.id)}
              fillOpacity={index ? 0.45 : 1}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

function GroundChart({ stats }: { stats: Statistics }) {
  const colours = sideColours(stats.sides, useVocabulary().data?.side_colours);
  const { rows, series } = figureSeries(stats, GROUND);
  return (
    <figure className="chart" aria-label="Sectors and victory points held">
      <figcaption>Sectors and victory points held at each day&apos;s end</figcaption>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={rows}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="day" />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend />
          {series.map(({ dataKey, name, side, index }) => (
            <Line
              key={dataKey}
              dataKey={dataKey}
              name={name}
              stroke={colours.get(side.id)}
              strokeDasharray={index ? "5 3" : undefined}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Every figure of every side and day, in the API's words and order. */
export function FiguresTable({ stats }: { stats: Statistics }) {
  return (
    <TableWrap label="The day's figures">
      <table className="stacked">
        <caption>Each day&apos;s figures per side</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Side</th>
            {stats.figures.map((figure) => (
              <th key={figure.key} scope="col">
                {figure.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {stats.days.flatMap((day) =>
            stats.sides.map((side) => {
              const entry = tally(day, side.id);
              return (
                <tr key={`${day.day}-${side.id}`}>
                  <td data-label="Day">{day.day}</td>
                  <th scope="row" data-label="Side">
                    {side.name}
                  </th>
                  {stats.figures.map((figure) => (
                    <td key={figure.key} data-label={figure.title}>
                      <Masked
                        value={entry?.[figure.key as FigureKey]}
                        hidden={figure.after_night && !day.night_done ? "after the night" : "hidden"}
                      />
                    </td>
                  ))}
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function StatisticsPage() {
  const { campaign } = useCampaign();
  const statistics = useQuery({
    queryKey: queryKeys.statistics(campaign.slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/statistics/", {
          params: { path: { campaign_slug: campaign.slug } },
        }),
      ),
  });
  return (
    <section>
      <h1>Statistics</h1>
      <QueryView query={statistics} what="the statistics">
        {(stats) =>
          stats.days.length ? (
            <>
              <p>
                <a href={stats.links.csv} download>
                  Download the figures (CSV)
                </a>
              </p>
              <h2>Losses and ground</h2>
              <div className="charts">
                <LossesChart stats={stats} />
                <GroundChart stats={stats} />
              </div>
              <FiguresTable stats={stats} />
              <h2>Force strength by stand type</h2>
              <div className="charts">
                {stats.sides.map((side) => (
                  <StrengthChart key={side.id} stats={stats} side={side} />
                ))}
              </div>
              <h2>Activation points and barrage rounds</h2>
              <PoolsChart stats={stats} />
              <StatisticsTable stats={stats} />
              <DivisionPoolsTable stats={stats} />
            </>
          ) : (
            <p>No campaign day has dawned yet.</p>
          )
        }
      </QueryView>
    </section>
  );
}
