import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { uid } from "../test/fixtures";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import type { CampaignContext } from "../session";
import { Outlet } from "react-router";
import { ClubPage } from "./Club";

afterEach(() => vi.unstubAllGlobals());

const CAMPAIGN = {
  slug: "malta",
  name: "Malta 1942",
  sides: [
    { id: 1, name: "Axis" },
    { id: 2, name: "Allied" },
  ],
} as Schemas["Campaign"];

const SCHEDULE: Schemas["Schedule"] = {
  night_weekday: 3,
  night_weekday_label: "Thursday",
  night_time: "21:30:00",
  time_zone: "Europe/Malta",
  next_night_phase: null,
  club_nights: [{ campaign_day: 1, play_date: "2026-12-03" }],
  orders_lead_hours: 0,
};

function renderClub(isUmpire: boolean) {
  const context: CampaignContext = { campaign: CAMPAIGN, isUmpire };
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={context} />}>
        <Route path="*" element={<ClubPage />} />
      </Route>
    </Routes>,
  );
}

describe("the club page", () => {
  it("shows a player the schedule and their calendar link, and nothing to manage", async () => {
    stubFetch(
      jsonResponse(200, SCHEDULE),
      jsonResponse(200, { url: "http://club.example/api/v1/calendar/secret.ics" }),
    );
    renderClub(false);

    expect(await screen.findByText("Every Thursday at 21:30 (Europe/Malta)")).toBeInTheDocument();
    expect(screen.getByText("Campaign day 1: Thu, 3 December 2026")).toBeInTheDocument();
    expect(await screen.findByLabelText("Calendar address")).toHaveValue(
      "http://club.example/api/v1/calendar/secret.ics",
    );
    expect(screen.queryByRole("heading", { name: "Members" })).not.toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Club schedule" })).not.toBeInTheDocument();
  });

  it("shows the umpire an invitation link once, made for the side chosen", async () => {
    const seen = stubFetch(
      jsonResponse(200, SCHEDULE),
      jsonResponse(200, { url: "http://club.example/api/v1/calendar/secret.ics" }),
      jsonResponse(200, [{ id: uid(1), username: "umpire", role: "umpire", role_label: "Umpire", side: null, side_name: null }]),
      jsonResponse(200, { count: 0, next: null, previous: null, results: [] }),
      jsonResponse(201, {
        id: uid(7),
        role: "player",
        role_label: "Player",
        side: 2,
        side_name: "Allied",
        expires_at: "2026-12-10T20:00:00Z",
        expired: false,
        created_by: "umpire",
        created_at: "2026-12-03T20:00:00Z",
        accepted_by: null,
        accepted_at: null,
        token: "abc",
        link: "http://club.example/join/abc",
      }),
      jsonResponse(200, { count: 0, next: null, previous: null, results: [] }),
    );
    renderClub(true);
    const user = userEvent.setup();

    await screen.findByText("umpire");
    await user.selectOptions(screen.getByLabelText("Side", { selector: "#invite-side" }), "Allied");
    await user.click(screen.getByRole("button", { name: "Make an invitation link" }));

    expect(await screen.findByLabelText("Invitation link")).toHaveValue("http://club.example/join/abc");
    const invite = seen.find((request) => request.method === "POST");
    expect(await invite?.json()).toEqual({ role: "player", side: 2, expires_in_days: 7 });
    expect(invite?.headers.get("Idempotency-Key")).toBeTruthy();
  });

  it("puts the schedule's field errors next to their inputs", async () => {
    stubFetch(
      jsonResponse(200, SCHEDULE),
      jsonResponse(200, { url: "http://club.example/c.ics" }),
      jsonResponse(200, []),
      jsonResponse(200, { count: 0, next: null, previous: null, results: [] }),
      jsonResponse(400, {
        error: {
          code: "invalid",
          message: "Club nights, entry 1, campaign day: campaign day 1 is listed twice.",
          fields: { "club_nights[0].campaign_day": ["Campaign day 1 is listed twice."] },
          rule: null,
        },
      }),
    );
    renderClub(true);
    const user = userEvent.setup();

    await user.click(await screen.findByRole("button", { name: "Save the schedule" }));

    const day = screen.getByLabelText("Campaign day");
    expect(await screen.findByText("Campaign day 1 is listed twice.")).toBeInTheDocument();
    expect(day).toHaveAccessibleDescription("Campaign day 1 is listed twice.");
  });
});
