import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { api, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { Masked, QueryView } from "../components/status";
import { useCampaign } from "../session";

type Statistics = Schemas["Statistics"];
const COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

function tally(day: Statistics["days"][number], sideId: number) {
  return day.sides.find((entry) => entry.side === sideId);
}

/** Stands still fighting (ok or suppressed) by stand type, per day, for one side. */
function StrengthChart({ stats, side }: { stats: Statistics; side: Statistics["sides"][number] }) {
  const rows = stats.days.map((day) => {
    const strength = tally(day, side.id)?.strength;
    const row: Record<string, number | string | null> = { day: `Day ${day.day}` };
    for (const [type, counts] of Object.entries(strength ?? {})) row[type] = counts.ok + counts.suppressed;
    return row;
  });
  const labels = Object.assign({}, ...stats.days.map((day) => tally(day, side.id)?.strength_labels ?? {})) as Record<
    string,
    string
  >;
  const types = Object.keys(labels);
  const hidden = stats.days.length > 0 && stats.days.every((day) => !tally(day, side.id)?.strength);
  return (
    <figure className="chart" aria-label={`Strength of ${side.name}`}>
      <figcaption>{side.name}: stands in action by type</figcaption>
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
            {types.map((type, index) => (
              <Bar
                key={type}
                dataKey={type}
                name={labels[type]}
                stackId="strength"
                fill={COLOURS[index % COLOURS.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}

function PoolsChart({ stats }: { stats: Statistics }) {
  const rows = stats.days.map((day) => {
    const row: Record<string, number | string | null> = { day: `Day ${day.day}` };
    for (const side of stats.sides) {
      const entry = tally(day, side.id);
      row[`${side.name} activation points`] = entry?.activation_points ?? null;
      row[`${side.name} barrage rounds`] = entry?.barrage_rounds ?? null;
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
          {stats.sides.flatMap((side, index) => [
            <Line
              key={`${side.id}-ap`}
              dataKey={`${side.name} activation points`}
              isAnimationActive={false}
              stroke={COLOURS[(2 * index) % COLOURS.length]}
            />,
            <Line
              key={`${side.id}-br`}
              dataKey={`${side.name} barrage rounds`}
              isAnimationActive={false}
              stroke={COLOURS[(2 * index + 1) % COLOURS.length]}
              strokeDasharray="5 3"
            />,
          ])}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** The numbers behind the charts, for screen readers and small screens. */
function StatisticsTable({ stats }: { stats: Statistics }) {
  return (
    <div className="table-wrap">
      <table>
        <caption>Per side and day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Side</th>
            <th scope="col">Activation points</th>
            <th scope="col">Barrage rounds</th>
            <th scope="col">Stands ok / suppressed / destroyed</th>
          </tr>
        </thead>
        <tbody>
          {stats.days.flatMap((day) =>
            stats.sides.map((side) => {
              const entry = tally(day, side.id);
              const counts = entry?.strength ? Object.values(entry.strength) : null;
              const sum = (key: "ok" | "suppressed" | "destroyed") =>
                (counts ?? []).reduce((total, c) => total + c[key], 0);
              return (
                <tr key={`${day.day}-${side.id}`}>
                  <td>{day.day}</td>
                  <th scope="row">{side.name}</th>
                  <td>
                    <Masked value={entry?.activation_points} hidden="hidden" />
                  </td>
                  <td>
                    <Masked value={entry?.barrage_rounds} hidden="hidden" />
                  </td>
                  <td>
                    {counts ? `${sum("ok")} / ${sum("suppressed")} / ${sum("destroyed")}` : <Masked value={null} hidden="hidden" />}
                  </td>
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
    </div>
  );
}

export function ChartsPage() {
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
      <h1>Charts</h1>
      <QueryView query={statistics} what="the statistics">
        {(stats) =>
          stats.days.length ? (
            <>
              <h2>Force strength by stand type</h2>
              <div className="charts">
                {stats.sides.map((side) => (
                  <StrengthChart key={side.id} stats={stats} side={side} />
                ))}
              </div>
              <h2>Activation points and barrage rounds</h2>
              <PoolsChart stats={stats} />
              <StatisticsTable stats={stats} />
            </>
          ) : (
            <p>No campaign day has dawned yet.</p>
          )
        }
      </QueryView>
    </section>
  );
}
