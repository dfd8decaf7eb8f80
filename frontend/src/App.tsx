import type { QueryClient } from "@tanstack/react-query";
import { Link, matchRoutes, Outlet, useNavigate, useRoutes, type Params, type RouteObject } from "react-router";
import { campaignSummaryQuery } from "./api/campaign";
import { prefetchDashboard } from "./api/dashboard";
import { RequireSession, sessionQuery, useSession, useSignOut } from "./session";
import { InboxBell } from "./components/InboxBell";
import { lazyPage, PageLoading, type LazyPage } from "./components/status";
// The frame of every campaign page (its tabs, 1 KB) comes with the app: on a slow phone a chunk
// of its own would cost a round trip before the campaign is even asked for.
import { CampaignLayout } from "./pages/CampaignLayout";

// Each page is a chunk of its own, fetched when a person first opens it: a club's phone
// downloads the code of the page it shows, not of every page (for the dashboard, 106 KB
// gzipped instead of 263). The import() calls stay literal so Vite can split them and the
// architecture test can see which pages the router imports.
const SignInPage = lazyPage(() => import("./pages/SignIn"), (m) => m.SignInPage);
const CampaignListPage = lazyPage(() => import("./pages/CampaignList"), (m) => m.CampaignListPage);
const NewCampaignPage = lazyPage(() => import("./pages/NewCampaign"), (m) => m.NewCampaignPage);
const InboxPage = lazyPage(() => import("./pages/Inbox"), (m) => m.InboxPage);
const JoinPage = lazyPage(() => import("./pages/Join"), (m) => m.JoinPage);
const DashboardPage = lazyPage(() => import("./pages/Dashboard"), (m) => m.DashboardPage);
const DayPage = lazyPage(() => import("./pages/day/DayPage"), (m) => m.DayPage);
const FogOfWarPage = lazyPage(() => import("./pages/FogOfWar"), (m) => m.FogOfWarPage);
const MapPage = lazyPage(() => import("./pages/Map"), (m) => m.MapPage);
const ForcesPage = lazyPage(() => import("./pages/Forces"), (m) => m.ForcesPage);
const BattlesPage = lazyPage(() => import("./pages/Battles"), (m) => m.BattlesPage);
const BattleDetailPage = lazyPage(() => import("./pages/Battles"), (m) => m.BattleDetailPage);
const NightPage = lazyPage(() => import("./pages/Night"), (m) => m.NightPage);
const OrdersPage = lazyPage(() => import("./pages/Orders"), (m) => m.OrdersPage);
const RollsPage = lazyPage(() => import("./pages/Rolls"), (m) => m.RollsPage);
const TimelinePage = lazyPage(() => import("./pages/Timeline"), (m) => m.TimelinePage);
const StatisticsPage = lazyPage(() => import("./pages/Statistics"), (m) => m.StatisticsPage);
const BattalionHistoryPage = lazyPage(() => import("./pages/BattalionHistory"), (m) => m.BattalionHistoryPage);
const ClubPage = lazyPage(() => import("./pages/Club"), (m) => m.ClubPage);
const IntegrationsPage = lazyPage(() => import("./pages/Integrations"), (m) => m.IntegrationsPage);

/** What a route asks for when the app opens on it: see {@link preloadRoute}. */
interface Preload {
  preload: (queryClient: QueryClient, params: Params) => void;
}

/** A page's route: its element, and its chunk and the answers it first `reads`, asked for as the
 * app opens on it. */
function page(Page: LazyPage, reads?: Preload["preload"]): Pick<RouteObject, "element" | "handle"> {
  const handle: Preload = {
    preload: (queryClient, params) => {
      void Page.preload();
      reads?.(queryClient, params);
    },
  };
  return { element: <Page />, handle };
}

const routes: RouteObject[] = [
  { path: "/login", ...page(SignInPage) },
  {
    element: (
      <RequireSession>
        <Outlet />
      </RequireSession>
    ),
    children: [
      { path: "/", ...page(CampaignListPage) },
      { path: "/campaigns/new", ...page(NewCampaignPage) },
      { path: "/inbox", ...page(InboxPage) },
      { path: "/join/:token", ...page(JoinPage) },
      {
        path: "/campaigns/:slug",
        element: <CampaignLayout />,
        handle: {
          preload: (queryClient, { slug = "" }) => void queryClient.prefetchQuery(campaignSummaryQuery(slug)),
        } satisfies Preload,
        children: [
          {
            index: true,
            ...page(DashboardPage, (queryClient, { slug = "" }) => prefetchDashboard(queryClient, slug)),
          },
          { path: "day", ...page(DayPage) },
          { path: "fog", ...page(FogOfWarPage) },
          { path: "map", ...page(MapPage) },
          { path: "forces", ...page(ForcesPage) },
          { path: "forces/battalions/:battalionId", ...page(BattalionHistoryPage) },
          { path: "battles", ...page(BattlesPage) },
          { path: "battles/:battleId", ...page(BattleDetailPage) },
          { path: "night", ...page(NightPage) },
          { path: "orders", ...page(OrdersPage) },
          { path: "rolls", ...page(RollsPage) },
          { path: "timeline", ...page(TimelinePage) },
          { path: "statistics", ...page(StatisticsPage) },
          { path: "club", ...page(ClubPage) },
          { path: "integrations", ...page(IntegrationsPage) },
        ],
      },
    ],
  },
  {
    path: "*",
    element: (
      <p>
        No such page. <Link to="/">Back to your campaigns</Link>
      </p>
    ),
  },
];

/**
 * Asks at once for what the page at `location` needs: the session, the campaign, the page's
 * chunk and its first answers. Rendered gate by gate they would come one after the other (the
 * session, then the campaign, then the chunk, then the page's reads): on a slow phone each is a
 * round trip. Called once, as the app starts; later pages load as they are opened.
 */
export function preloadRoute(queryClient: QueryClient, location: Pick<Location, "pathname">) {
  void queryClient.prefetchQuery(sessionQuery); // every page's top bar reads it
  for (const { route, params } of matchRoutes(routes, location.pathname) ?? []) {
    (route.handle as Preload | undefined)?.preload(queryClient, params);
  }
}

function TopBar() {
  const session = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <header className="topbar">
      <Link to="/" className="brand">
        Campaign
      </Link>
      {session.data?.authenticated ? (
        <span className="who">
          <InboxBell /> <span className="username">{session.data.username}</span>{" "}
          <button
            type="button"
            onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate("/login") })}
          >
            Sign out
          </button>
        </span>
      ) : null}
    </header>
  );
}

export function App() {
  const routed = useRoutes(routes);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <TopBar />
      <main id="main">
        <PageLoading>{routed}</PageLoading>
      </main>
    </>
  );
}
