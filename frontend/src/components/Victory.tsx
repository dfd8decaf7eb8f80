import { useQuery } from "@tanstack/react-query";
import type { Schemas } from "../api/client";
import { victoryQuery } from "../api/dashboard";
import { QueryView } from "./status";
import { TableWrap } from "./TableWrap";

/** The campaign's victory conditions and standing (the dashboard's and the map's). */
export function useVictory(slug: string) {
  return useQuery(victoryQuery(slug));
}

/** Each sector a victory condition names, with the sides whose condition names it. */
export function objectivesOf(victory: Schemas["Victory"] | undefined): Map<number, string[]> {
  const objectives = new Map<number, string[]>();
  for (const condition of victory?.conditions ?? []) {
    for (const sector of condition.sectors) {
      const sides = objectives.get(sector.id) ?? [];
      if (!sides.includes(condition.side_name)) objectives.set(sector.id, [...sides, condition.side_name]);
    }
  }
  return objectives;
}

/** The scenario's victory conditions and where each side stands against them, or how the campaign
 * ended: every sentence is the API's (sectors and their owners are public, so everybody reads it). */
export function VictoryStanding({ campaign }: { campaign: Schemas["Campaign"] }) {
  const victory = useVictory(campaign.slug);
  return (
    <section aria-labelledby="victory">
      <h2 id="victory">Victory</h2>
      <QueryView query={victory} what="the victory conditions">
        {(data) => (
          <>
            <p className={data.finished ? "card result" : undefined}>
              <strong>{data.summary}</strong>
            </p>
            {data.conditions.length ? (
              <ol className="cards victory-conditions">
                {data.conditions.map((condition, index) => (
                  <li key={index} className="card" aria-label={`Victory condition ${index + 1}`}>
                    <p>
                      {/* "Axis victory on points" names its side already: a tag would read "Axis Axis". */}
                      {condition.result.startsWith(condition.side_name) ? null : (
                        <>
                          <span className="tag">{condition.side_name}</span>{" "}
                        </>
                      )}
                      {condition.result}
                      {condition.met ? <span className="tag">Met</span> : null}
                    </p>
                    <p>{condition.standing}</p>
                  </li>
                ))}
              </ol>
            ) : null}
            {data.end_text ? <p>{data.end_text}</p> : null}
            <TableWrap label="Ground held">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Side</th>
                    <th scope="col">Sectors held</th>
                    <th scope="col">Victory points held</th>
                  </tr>
                </thead>
                <tbody>
                  {data.sides.map((side) => (
                    <tr key={side.side}>
                      <th scope="row">{side.name}</th>
                      <td>{side.sectors_held}</td>
                      <td>{side.victory_points}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </>
        )}
      </QueryView>
    </section>
  );
}
