import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { ArrivalReports, ReportCard } from "./Night";

const ARRIVAL: Schemas["NightReport"] = {
  id: "0b5e3c1a-6f0d-4c49-9a57-2f8d3e1b7c40",
  operation: "3c9a1e7b-2d4f-4a6b-8e0c-1f2a3b4c5d6e",
  kind: "arrivals",
  kind_label: "Arrival rolls",
  title: "Arrivals, day 2, morning",
  side: 2,
  day: 2,
  created_at: "1942-07-11T08:00:00Z",
  body: {
    day: 2,
    segment: "morning",
    side: "Allied",
    arrivals: [
      {
        force: "7th Armoured",
        arrival_status: "arrived",
        arrival_status_label: "Arrived",
        zone: "Mdina",
        lines: ["Arrival: 5 + 0 = 5, arrives"],
      },
    ],
  },
};

const NIGHT: Schemas["NightReport"] = {
  ...ARRIVAL,
  id: "9d2f7a64-1c3e-4b8a-8e0f-5a6b7c8d9e01",
  kind: "night_phase",
  kind_label: "Night phase",
  title: "Night of day 1",
  day: 1,
  body: { day: 1, side: "Allied", replacements_rolled: 4, replacements_due: 5, replacements_returned: 3, suppressions_flipped: 2 },
};

afterEach(() => vi.unstubAllGlobals());

describe("reports, each under its kind", () => {
  it("show an arrival report as the segment's arrivals, not as a night", () => {
    render(<ReportCard report={ARRIVAL} side="Allied" />);

    const card = screen.getByRole("article", { name: "Arrival report of Allied, Arrivals, day 2, morning" });
    expect(within(card).getByRole("heading")).toHaveTextContent("Allied: Arrivals, day 2, morning");
    expect(card).toHaveTextContent("7th Armoured: Arrived, at Mdina");
    expect(card).toHaveTextContent("Arrival: 5 + 0 = 5, arrives");
    expect(card).not.toHaveTextContent(/night/i);
  });

  it("show a night report with the side's own counters", () => {
    renderWithProviders(<ReportCard report={NIGHT} side="Allied" />);

    const card = screen.getByRole("article", { name: "Night report of Allied, day 1" });
    expect(within(card).getByRole("heading")).toHaveTextContent("Allied: Night of day 1");
    expect(card).toHaveTextContent("3 of 5 destroyed stands returned");
    expect(within(card).getByText("Suppressed stands back in order").nextSibling).toHaveTextContent("2");
    expect(within(card).queryByText("Battalions set inactive")).not.toBeInTheDocument(); // its step did not run
  });

  it("list the day's arrival reports by asking the API for that kind", async () => {
    const seen = stubFetch(jsonResponse(200, { count: 1, next: null, previous: null, results: [ARRIVAL] }));
    const campaign = {
      slug: "malta",
      current_day: 2,
      sides: [{ id: 2, name: "Allied" }],
    } as Schemas["Campaign"];
    renderWithProviders(<ArrivalReports campaign={campaign} />);

    expect(await screen.findByRole("article", { name: /Arrivals, day 2, morning/ })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("Arrival reports of day 2");
    const query = new URL(seen[0]?.url ?? "").searchParams;
    expect([query.get("kind"), query.get("day")]).toEqual(["arrivals", "2"]);
  });
});
