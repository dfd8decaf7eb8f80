import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { QueryView } from "./status";

// Work finishes elsewhere (players submit, workers roll): the list asks again now and then.
const REFRESH_MS = 30_000;

/** What waits for the umpire now, each item the API's sentence with a link to where it is done. */
export function UmpireTodo({ campaign }: { campaign: Schemas["Campaign"] }) {
  const todo = useQuery({
    queryKey: queryKeys.todo(campaign.slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/todo/", { params: { path: { campaign_slug: campaign.slug } } })),
    refetchInterval: REFRESH_MS,
  });
  return (
    <section aria-labelledby="umpire-todo" className="card">
      <h2 id="umpire-todo">Waiting for you</h2>
      <QueryView query={todo} what="what waits for you">
        {(data) =>
          data.items.length ? (
            <ul className="todo">
              {data.items.map((item, index) => (
                <li key={index}>
                  <span className="tag">{item.kind_label}</span> <Link to={item.link}>{item.text}</Link>
                </li>
              ))}
            </ul>
          ) : (
            <p>Nothing waits for you now.</p>
          )
        }
      </QueryView>
    </section>
  );
}
