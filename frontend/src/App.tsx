import { Link, Route, Routes, useNavigate } from "react-router";
import { RequireSession, useSession, useSignOut } from "./session";
import { InboxBell } from "./components/InboxBell";
import { lazyPage, PageLoading } from "./components/status";
// The frame of every campaign page (its tabs, 1 KB) comes with the app: on a slow phone a chunk
// of its own would cost a round trip before the campaign is even asked for.
import { CampaignLayout } from "./pages/CampaignLayout";

// Each page is a chunk of its own, fetched when a person first opens it: a club's phone
// downloads the code of the page it shows, not of every page (for the dashboard, 103 KB
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
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <TopBar />
      <main id="main">
        <PageLoading>
          <Routes>
          <Route path="/login" element={<SignInPage />} />
          <Route
            path="/"
            element={
              <RequireSession>
                <CampaignListPage />
              </RequireSession>
            }
          />
          <Route
            path="/campaigns/new"
            element={
              <RequireSession>
                <NewCampaignPage />
              </RequireSession>
            }
          />
          <Route
            path="/inbox"
            element={
              <RequireSession>
                <InboxPage />
              </RequireSession>
            }
          />
          <Route
            path="/join/:token"
            element={
              <RequireSession>
                <JoinPage />
              </RequireSession>
            }
          />
          <Route
            path="/campaigns/:slug"
            element={
              <RequireSession>
                <CampaignLayout />
              </RequireSession>
            }
          >
            <Route index element={<DashboardPage />} />
            <Route path="day" element={<DayPage />} />
            <Route path="fog" element={<FogOfWarPage />} />
            <Route path="map" element={<MapPage />} />
            <Route path="forces" element={<ForcesPage />} />
            <Route path="forces/battalions/:battalionId" element={<BattalionHistoryPage />} />
            <Route path="battles" element={<BattlesPage />} />
            <Route path="battles/:battleId" element={<BattleDetailPage />} />
            <Route path="night" element={<NightPage />} />
            <Route path="orders" element={<OrdersPage />} />
            <Route path="rolls" element={<RollsPage />} />
            <Route path="timeline" element={<TimelinePage />} />
            <Route path="statistics" element={<StatisticsPage />} />
            <Route path="club" element={<ClubPage />} />
            <Route path="integrations" element={<IntegrationsPage />} />
          </Route>
          <Route path="*" element={<p>No such page. <Link to="/">Back to your campaigns</Link></p>} />
          </Routes>
        </PageLoading>
      </main>
    </>
  );
}
