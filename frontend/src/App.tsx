import { lazy } from "react";
import { Link, Route, Routes, useNavigate } from "react-router";
import { RequireSession, useSession, useSignOut } from "./session";
import { InboxBell } from "./components/InboxBell";
import { PageLoading } from "./components/status";
// The frame of every campaign page (its tabs, 1 KB) comes with the app: on a slow phone a chunk
// of its own would cost a round trip before the campaign is even asked for.
import { CampaignLayout } from "./pages/CampaignLayout";

// Each page is a chunk of its own, fetched when a person first opens it: a club's phone
// downloads the code of the page it shows, not of every page (for the dashboard, 103 KB
// gzipped instead of 263). The import() calls stay literal so Vite can split them and the
// architecture test can see which pages the router imports.
const SignInPage = lazy(() => import("./pages/SignIn").then((m) => ({ default: m.SignInPage })));
const CampaignListPage = lazy(() => import("./pages/CampaignList").then((m) => ({ default: m.CampaignListPage })));
const NewCampaignPage = lazy(() => import("./pages/NewCampaign").then((m) => ({ default: m.NewCampaignPage })));
const InboxPage = lazy(() => import("./pages/Inbox").then((m) => ({ default: m.InboxPage })));
const JoinPage = lazy(() => import("./pages/Join").then((m) => ({ default: m.JoinPage })));
const DashboardPage = lazy(() => import("./pages/Dashboard").then((m) => ({ default: m.DashboardPage })));
const DayPage = lazy(() => import("./pages/Day").then((m) => ({ default: m.DayPage })));
const FogOfWarPage = lazy(() => import("./pages/FogOfWar").then((m) => ({ default: m.FogOfWarPage })));
const MapPage = lazy(() => import("./pages/Map").then((m) => ({ default: m.MapPage })));
const ForcesPage = lazy(() => import("./pages/Forces").then((m) => ({ default: m.ForcesPage })));
const BattlesPage = lazy(() => import("./pages/Battles").then((m) => ({ default: m.BattlesPage })));
const BattleDetailPage = lazy(() => import("./pages/Battles").then((m) => ({ default: m.BattleDetailPage })));
const NightPage = lazy(() => import("./pages/Night").then((m) => ({ default: m.NightPage })));
const OrdersPage = lazy(() => import("./pages/Orders").then((m) => ({ default: m.OrdersPage })));
const RollsPage = lazy(() => import("./pages/Rolls").then((m) => ({ default: m.RollsPage })));
const ChartsPage = lazy(() => import("./pages/Charts").then((m) => ({ default: m.ChartsPage })));
const ClubPage = lazy(() => import("./pages/Club").then((m) => ({ default: m.ClubPage })));
const IntegrationsPage = lazy(() => import("./pages/Integrations").then((m) => ({ default: m.IntegrationsPage })));

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
            <Route path="battles" element={<BattlesPage />} />
            <Route path="battles/:battleId" element={<BattleDetailPage />} />
            <Route path="night" element={<NightPage />} />
            <Route path="orders" element={<OrdersPage />} />
            <Route path="rolls" element={<RollsPage />} />
            <Route path="charts" element={<ChartsPage />} />
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
