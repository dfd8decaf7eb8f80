import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { QueryView } from "../components/status";

export function CampaignListPage() {
  const campaigns = useQuery({
    queryKey: queryKeys.campaigns,
    queryFn: () => unwrap(api.GET("/api/v1/campaigns/", { params: { query: { page_size: 100 } } })),
  });
  return (
    <section>
      <h1>Your campaigns</h1>
      <p>
        <Link to="/campaigns/new">New campaign</Link>
      </p>
      <QueryView query={campaigns} what="campaigns">
        {(page) =>
          page.results.length ? (
            <ul className="cards">
              {page.results.map((campaign) => (
                <li key={campaign.slug} className="card">
                  <Link to={`/campaigns/${campaign.slug}`}>
                    <strong>{campaign.name}</strong>
                  </Link>
                  <p className="muted">
                    {campaign.theatre_label}, {campaign.year} · day {campaign.current_day ?? 0} · you are{" "}
                    {campaign.role_label.toLowerCase()}
                  </p>
                </li>
              ))}
            </ul>
          ) : (
            <p>You are not a member of any campaign yet.</p>
          )
        }
      </QueryView>
    </section>
  );
}
