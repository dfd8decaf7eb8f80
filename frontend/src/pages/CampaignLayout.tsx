import { NavLink, Outlet, useParams } from "react-router";
import { useCampaignSummary } from "../api/campaign";
import { PageLoading, QueryView } from "../components/status";
import type { CampaignContext } from "../session";

const TABS = [
  ["", "Dashboard"],
  ["day", "The day"],
  ["map", "Map"],
  ["forces", "Forces"],
  ["battles", "Battles"],
  ["orders", "Orders"],
  ["night", "Night phase"],
  ["rolls", "Roll log"],
  ["timeline", "Timeline"],
  ["statistics", "Statistics"],
  ["club", "Club"],
] as const;
const UMPIRE_TABS = [
  ["fog", "Fog of war"],
  ["integrations", "API keys & webhooks"],
] as const;

export function CampaignLayout() {
  const slug = useParams().slug ?? "";
  const summary = useCampaignSummary(slug);
  return (
    <QueryView query={summary} what="the campaign">
      {(campaign) => {
        const context: CampaignContext = { campaign, isUmpire: campaign.you_umpire };
        return (
          <>
            <nav className="tabs" aria-label="Campaign">
              {[...TABS, ...(context.isUmpire ? UMPIRE_TABS : [])].map(([path, label]) => (
                <NavLink key={path} to={`/campaigns/${slug}${path ? `/${path}` : ""}`} end={!path}>
                  {label}
                </NavLink>
              ))}
            </nav>
            {/* The tabs stay while another tab's page arrives. */}
            <PageLoading>
              <Outlet context={context} />
            </PageLoading>
          </>
        );
      }}
    </QueryView>
  );
}
