import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { api, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { Masked, QueryView } from "../components/status";
import { TableWrap } from "../components/TableWrap";
import { useCampaign } from "../session";

type History = Schemas["BattalionHistory"];

/** The battles it fought, each with its line of the report as the reader may see it. */
function BattlesServed({ history, slug }: { history: History; slug: string }) {
  if (!history.battles.length) return <p>No battle of it that you may read.</p>;
  return (
    <TableWrap label="Battles fought">
      <table className="stacked">
        <caption>Battles fought</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Battle</th>
            <th scope="col">Won by</th>
            <th scope="col">Stands lost</th>
            <th scope="col">Stands suppressed</th>
            <th scope="col">Activation points spent</th>
          </tr>
        </thead>
        <tbody>
          {history.battles.map((battle) => (
            <tr key={battle.id}>
              <td data-label="Day">{battle.day}</td>
              <th scope="row" data-label="Battle">
                <Link to={`/campaigns/${slug}/battles/${battle.id}`}>
                  {battle.battle_type_label} at {battle.sector_name}
                </Link>{" "}
                ({battle.attacker_name} against {battle.defender_name}, {battle.status_label.toLowerCase()})
              </th>
              <td data-label="Won by">
                <Masked value={battle.winner_name} hidden="nobody yet" />
              </td>
              <td data-label="Stands lost">
                <Masked value={battle.stands_lost} hidden="hidden" />
              </td>
              <td data-label="Stands suppressed">
                <Masked value={battle.stands_suppressed} hidden="hidden" />
              </td>
              <td data-label="Activation points spent">
                <Masked value={battle.activation_points_spent} hidden="hidden" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function BattalionHistoryPage() {
  const { campaign } = useCampaign();
  const battalionId = useParams().battalionId ?? "";
  const history = useQuery({
    queryKey: queryKeys.battalionHistory(campaign.slug, battalionId),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/battalions/{id}/history/", {
          params: { path: { campaign_slug: campaign.slug, id: battalionId } },
        }),
      ),
  });
  return (
    <section>
      <p>
        <Link to={`/campaigns/${campaign.slug}/forces`}>Back to the forces</Link>
      </p>
      <QueryView query={history} what="the battalion's history">
        {(data) => (
          <>
            <h1>
              Service history of {data.battalion.code} {data.battalion.name}
            </h1>
            <dl className="facts">
              <dt>Battles fought</dt>
              <dd>{data.battles_fought}</dd>
              <dt>Stands lost in battle</dt>
              <dd>
                <Masked value={data.stands_lost} hidden="hidden" />
              </dd>
              <dt>Stands replaced</dt>
              <dd>
                <Masked value={data.stands_replaced} hidden="hidden" />
              </dd>
              <dt>Moves</dt>
              <dd>{data.moves_made}</dd>
            </dl>
            <h2>Battles</h2>
            <BattlesServed history={data} slug={campaign.slug} />
            <h2>Nights: replacements</h2>
            {data.nights.length ? (
              <ul>
                {data.nights.map((night) => (
                  <li key={night.day}>
                    Night of day {night.day}: {night.stands_replaced} back
                    <ul className="roll-lines">
                      {night.lines.map((line, index) => (
                        <li key={index}>{line}</li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            ) : (
              <p>No replacement roll of it that you may read.</p>
            )}
            <h2>Moves</h2>
            {data.moves.length ? (
              <ul>
                {data.moves.map((move) => (
                  <li key={move.at}>
                    {move.day ? `Day ${move.day}: ` : ""}
                    {move.message}
                  </li>
                ))}
              </ul>
            ) : (
              <p>No move of it that you may read.</p>
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}
