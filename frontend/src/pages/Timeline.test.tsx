import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Outlet, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { CAMPAIGN, uid } from "../test/fixtures";
import { jsonResponse, renderWithProviders } from "../test/render";
import type { CampaignContext } from "../session";
import { TimelinePage } from "./Timeline";

afterEach(() => vi.unstubAllGlobals());

function timeline(actions: Schemas["TimelineDay"]["actions"], journal = ""): Schemas["Timeline"] {
  return {
    days: [
      {
        day: {
          id: uid(1),
          number: 1,
          date: "1942-07-10",
          weather: "D",
          weather_label: "Drizzle",
          status: "done",
          status_label: "Done",
          segments: [],
          journal,
          journal_written_at: null,
        },
        rolls: 12,
        links: [{ text: "The day's rolls", href: "/campaigns/malta-1942/rolls?day=1" }],
        entries: [
          {
            kind: "battle",
            kind_label: "Battles",
            text: "Local attack at Gudja: Axis attacking Allied, reported, won by Axis",
            at: "1942-07-10T08:00:00Z",
            sides: ["Axis", "Allied"],
            links: [{ text: "The battle", href: "/campaigns/malta-1942/battles/b1" }],
          },
        ],
        actions,
        actions_labels: actions.map(() => "Write the day's journal"),
      },
    ],
  };
}

/** Answers by path: the forces (none), the timeline as given, the journal written. */
function stubApi(answer: Schemas["Timeline"]): Request[] {
  const seen: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      seen.push(request);
      const path = new URL(request.url).pathname;
      if (path.endsWith("/forces/")) return jsonResponse(200, { count: 0, next: null, previous: null, results: [] });
      if (path.endsWith("/journal/")) return jsonResponse(200, answer.days[0]!.day);
      return jsonResponse(200, answer);
    }),
  );
  return seen;
}

function renderTimeline(isUmpire: boolean) {
  const context: CampaignContext = { campaign: CAMPAIGN, isUmpire };
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={context} />}>
        <Route path="*" element={<TimelinePage />} />
      </Route>
    </Routes>,
  );
}

describe("the timeline page", () => {
  it("lets the umpire write the journal the API offers, and filters by the vocabulary's kinds", async () => {
    const seen = stubApi(timeline(["write_journal"]));
    renderTimeline(true);

    await userEvent.type(await screen.findByLabelText("Write the day's journal"), "Rain over Gudja.");
    await userEvent.click(screen.getByRole("button", { name: "Save the journal" }));

    const put = await waitFor(() => seen.find((request) => request.method === "PUT")!);
    expect(new URL(put.url).pathname).toBe("/api/v1/campaigns/malta-1942/days/1/journal/");
    expect(await put.json()).toEqual({ text: "Rain over Gudja." });
    await userEvent.selectOptions(screen.getByLabelText("Kind of entry"), "Battles");
    await waitFor(() =>
      expect(seen.some((request) => new URL(request.url).searchParams.get("kind") === "battle")).toBe(true),
    );
  });

  it("shows a player the journal and the entries' links, with nothing to write", async () => {
    stubApi(timeline([], "The Axis took Gudja."));
    renderTimeline(false);

    expect(await screen.findByLabelText("Journal of day 1")).toHaveTextContent("The Axis took Gudja.");
    expect(screen.getByRole("link", { name: "The battle" })).toHaveAttribute("href", "/campaigns/malta-1942/battles/b1");
    expect(screen.getByText("12 rolls you may read.", { exact: false })).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).toBeNull();
  });
});
