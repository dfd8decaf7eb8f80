import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { clubTime, DayControls } from "./Dashboard";

// The actions and their words as the API offers them (campaign.choices.CAMPAIGN_ACTION_CHOICES).
const WORDS = {
  start: "Start the campaign",
  dawn: "Dawn the next day",
  open_next_segment: "Open the next segment",
  run_night: "Start the night phase",
} as const;

function campaign(actions: (keyof typeof WORDS)[], overrides: Partial<Schemas["Campaign"]> = {}): Schemas["Campaign"] {
  return {
    slug: "malta",
    status: "active",
    current_day: 1,
    day_status: "day",
    actions,
    actions_labels: actions.map((action) => WORDS[action]),
    ...overrides,
  } as Schemas["Campaign"];
}

afterEach(() => vi.unstubAllGlobals());

describe("the umpire's day controls", () => {
  it("start a campaign being set up, with an idempotency key", async () => {
    const seen = stubFetch(jsonResponse(200, campaign(["dawn"], { current_day: 0 })));
    renderWithProviders(<DayControls campaign={campaign(["start"], { status: "setup", current_day: 0, day_status: null })} />);

    expect(screen.queryByRole("link", { name: /Dawn/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Start the campaign" }));

    const [request] = seen;
    expect(seen).toHaveLength(1);
    expect(request?.method).toBe("POST");
    expect(request && new URL(request.url).pathname).toBe("/api/v1/campaigns/malta/start/");
    expect(request?.headers.get("Idempotency-Key")).toBeTruthy();
  });

  it("open the next segment of the day under way and show the API's refusal", async () => {
    stubFetch(
      jsonResponse(409, {
        error: { code: "no_next_segment", message: "day 1 has no segment after Night", fields: {}, rule: null },
      }),
    );
    renderWithProviders(<DayControls campaign={campaign(["open_next_segment", "run_night"])} />);

    expect(screen.queryByRole("link", { name: /Dawn/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Open the next segment" }));

    expect(await screen.findByText(/day 1 has no segment after Night/)).toBeInTheDocument();
  });

  it("dawn the next day once the night is done", () => {
    renderWithProviders(<DayControls campaign={campaign(["dawn"], { day_status: "done" })} />);

    expect(screen.getByRole("link", { name: "Dawn the next day…" })).toHaveAttribute("href", "/campaigns/malta/day");
    expect(screen.queryByRole("button", { name: "Open the next segment" })).not.toBeInTheDocument();
  });

  it("offers no segment after the day's last one, whatever the day's status says", () => {
    // Day 1 under way in its last segment: the API offers the night, not another segment.
    renderWithProviders(<DayControls campaign={campaign(["run_night"], { day_status: "day" })} />);

    expect(screen.queryByRole("button", { name: "Open the next segment" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /Dawn/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Start the campaign" })).not.toBeInTheDocument();
  });
});

describe("the next club night", () => {
  it("reads the schedule's moment on the club's clock, whatever the offset", () => {
    expect(clubTime("2026-11-25T09:00:00+01:00")).toBe("Wed 25 Nov 2026, 09:00");
    expect(clubTime("2026-03-29T09:00:00+02:00")).toBe("Sun 29 Mar 2026, 09:00");
    expect(clubTime("2026-11-22T20:00:00Z")).toBe("Sun 22 Nov 2026, 20:00");
  });
});
