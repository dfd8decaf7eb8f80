import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { QueryView } from "./status";

/** The campaign's dice commitment and the day seeds revealed so far, with how to check them
 * (docs/api.md, "Verifying the dice"). */
export function DiceFairness({ slug }: { slug: string }) {
  const dice = useQuery({
    queryKey: queryKeys.dice(slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/dice/", { params: { path: { campaign_slug: slug } } })),
  });
  return (
    <details className="dice-fairness">
      <summary>Provably fair dice</summary>
      <QueryView query={dice} what="the dice commitment">
        {(data) => (
          <>
            <p>
              Before any die was rolled the campaign published this commitment ({data.algorithm_label}):
            </p>
            <p>
              <code className="seed" aria-label="Commitment">
                {data.commitment}
              </code>
            </p>
            <p className="muted">
              Rolls now come from day {data.rolling_day}&apos;s seed; it is revealed when that day&apos;s night phase
              is done.
            </p>
            {data.revealed.length ? (
              <table aria-label="Revealed day seeds">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Seed</th>
                    <th scope="col">Roll log to verify</th>
                  </tr>
                </thead>
                <tbody>
                  {data.revealed.map((day) => (
                    <tr key={day.day}>
                      <td>{day.day}</td>
                      <td>
                        <code className="seed">{day.seed}</code>
                      </td>
                      <td>
                        <a href={`/api/v1/campaigns/${slug}/days/${day.day}/dice/`} download={`day-${day.day}-dice.json`}>
                          Day {day.day} dice (JSON)
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p>No day&apos;s seed is revealed yet.</p>
            )}
            <h2>How to verify</h2>
            <p>
              Day <i>d</i>&apos;s seed, hashed with SHA-256 <i>d</i> times, gives the commitment: the seed was
              fixed before the campaign began. Download a day&apos;s dice and replay every roll you may read
              with the campaign service&apos;s rules engine:
            </p>
            <pre>python -m rules_engine verify day-1-dice.json</pre>
            <p className="muted">
              It names any roll whose stored faces differ from what the seed gives; an umpire&apos;s override is
              listed as such.
            </p>
          </>
        )}
      </QueryView>
    </details>
  );
}
