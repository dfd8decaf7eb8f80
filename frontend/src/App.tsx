import { Link, Route, Routes, useNavigate } from "react-router";
import { RequireSession, useSession, useSignOut } from "./session";
import { BattleDetailPage, BattlesPage } from "./pages/Battles";
import { CampaignLayout } from "./pages/CampaignLayout";
import { CampaignListPage } from "./pages/CampaignList";
import { ChartsPage } from "./pages/Charts";
import { ClubPage } from "./pages/Club";
import { InboxBell } from "./components/InboxBell";
import { InboxPage } from "./pages/Inbox";
import { IntegrationsPage } from "./pages/Integrations";
import { JoinPage } from "./pages/Join";
import { NewCampaignPage } from "./pages/NewCampaign";
import { DashboardPage } from "./pages/Dashboard";
import { DayPage } from "./pages/Day";
import { FogOfWarPage } from "./pages/FogOfWar";
import { ForcesPage } from "./pages/Forces";
import { MapPage } from "./pages/Map";
import { NightPage } from "./pages/Night";
import { OrdersPage } from "./pages/Orders";
import { RollsPage } from "./pages/Rolls";
import { SignInPage } from "./pages/SignIn";

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
      </main>
    </>
  );
}
