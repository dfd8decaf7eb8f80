import { focusManager, useQuery } from "@tanstack/react-query";
import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithProviders } from "../test/render";
import { api, unwrap } from "./client";
import { SUMMARY_POLL_MS, useCampaignSummary } from "./campaign";
import { queryKeys } from "./queryKeys";

/** A page left open: the summary, and the day it shows. */
function OpenPage() {
  const summary = useCampaignSummary("malta");
  const day = useQuery({
    queryKey: queryKeys.day("malta", 1),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/days/{number}/", { params: { path: { campaign_slug: "malta", number: "1" } } })),
  });
  return (
    <p>
      version {summary.data?.version}, day {day.data?.status}
    </p>
  );
}

/** The API as a tab left open sees it: the summary's versions in turn, and the day's status at each. */
function stubCampaign(versions: number[], statuses: string[]) {
  const seen: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      seen.push(path);
      if (path === "/api/v1/campaigns/malta/") {
        const version = versions.length > 1 ? versions.shift() : versions[0];
        return jsonResponse(200, { slug: "malta", version, actions: [], actions_labels: [] });
      }
      const status = statuses.length > 1 ? statuses.shift() : statuses[0];
      return jsonResponse(200, { number: 1, status, segments: [] });
    }),
  );
  return seen;
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  focusManager.setFocused(undefined);
});

const summaries = (seen: string[]) => seen.filter((path) => path === "/api/v1/campaigns/malta/");
const days = (seen: string[]) => seen.filter((path) => path.endsWith("/days/1/"));

describe("the campaign summary of a page left open", () => {
  it("is asked again on an interval, and a new version refreshes what the page shows", async () => {
    const seen = stubCampaign([7, 8], ["night", "done"]);
    renderWithProviders(<OpenPage />);
    expect(await screen.findByText("version 7, day night")).toBeInTheDocument();

    // The night finished in another tab or on the club's schedule: the summary's version moved.
    await vi.advanceTimersByTimeAsync(SUMMARY_POLL_MS);

    expect(await screen.findByText("version 8, day done")).toBeInTheDocument();
    expect(summaries(seen)).toHaveLength(2);
    expect(days(seen)).toHaveLength(2);
  });

  it("leaves the rest alone while the version stays", async () => {
    const seen = stubCampaign([7], ["day"]);
    renderWithProviders(<OpenPage />);
    expect(await screen.findByText("version 7, day day")).toBeInTheDocument();

    await vi.advanceTimersByTimeAsync(SUMMARY_POLL_MS);

    expect(summaries(seen)).toHaveLength(2);
    expect(days(seen)).toHaveLength(1);
  });

  it("is read again when the window gets the focus back", async () => {
    const seen = stubCampaign([7], ["day"]);
    renderWithProviders(<OpenPage />);
    expect(await screen.findByText("version 7, day day")).toBeInTheDocument();

    focusManager.setFocused(false);
    focusManager.setFocused(true);

    await vi.waitFor(() => expect(summaries(seen)).toHaveLength(2));
  });
});
