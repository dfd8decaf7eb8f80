import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Outlet, Route, Routes } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import type { CampaignContext } from "../session";
import { jsonResponse, renderWithProviders } from "../test/render";
import { RollsPage } from "./Rolls";

const CONTEXT = { campaign: { slug: "malta" } as Schemas["Campaign"], isUmpire: false } satisfies CampaignContext;

function roll(id: string, title: string, outcome: string): Schemas["Roll"] {
  return {
    id,
    day: 1,
    segment: "morning",
    segment_label: "Morning",
    battalion: null,
    procedure: "gb.weather",
    override_of: null,
    line: `${title}: 2D6 → ${outcome}`,
    rule: "Great Battles of WWII charts, Dawn",
    output: { title, outcome_text: outcome, dice: [], modifiers: [], score: 7, threshold: null, cell: null },
  } as unknown as Schemas["Roll"];
}

const page = (results: unknown[]) => ({ next: null, previous: null, count: results.length, results });
const ANSWERS: Record<string, unknown> = {
  "/api/v1/campaigns/malta/days/": page([
    { number: 1, segments: [{ segment: "morning", segment_label: "Morning", order: 1 }] },
  ]),
  "/api/v1/campaigns/malta/battles/": page([{ id: 12, sector: 3, sector_name: "Gudja", day: 1 }]),
  "/api/v1/campaigns/malta/forces/": page([{ id: 3, name: "Fallschirmjäger-Brigade Ramcke" }]),
  "/api/v1/campaigns/malta/rolls/procedures/": [
    { procedure: "gb.weather", title: "Dawn weather" },
    { procedure: "n43.setup_proximity", title: "Set-up proximity" },
  ],
  "/api/v1/campaigns/malta/rolls/": page([roll("b", "Initiative", "Axis"), roll("a", "Dawn weather", "Overcast")]),
  "/api/v1/campaigns/malta/dice/": {
    commitment: "c0ffee".repeat(10) + "abcd",
    algorithm: "sha256-chain",
    algorithm_label: "link 0 is the master seed, link k = SHA-256 hex digest of link k-1",
    chain_length: 1000,
    rolling_day: 2,
    revealed: [{ day: 1, seed: "5eed".repeat(16) }],
  },
};

let seen: URL[] = [];

beforeEach(() => {
  seen = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      seen.push(url);
      if (!(url.pathname in ANSWERS)) throw new Error(`unexpected request ${url}`);
      return jsonResponse(200, ANSWERS[url.pathname]);
    }),
  );
});

function renderRolls() {
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={CONTEXT} />}>
        <Route path="*" element={<RollsPage />} />
      </Route>
    </Routes>,
  );
}

const rollRequests = () => seen.filter((url) => url.pathname === "/api/v1/campaigns/malta/rolls/");

describe("the roll log", () => {
  it("lists the rolls newest first, each as one line", async () => {
    renderRolls();

    const list = await screen.findByRole("list", { name: "Rolls, newest first" });
    const lines = within(list).getAllByRole("listitem").map((item) => item.querySelector("summary")?.textContent);
    expect(lines).toEqual(["Initiative · day 1 · morning: Axis", "Dawn weather · day 1 · morning: Overcast"]);
    expect(rollRequests()[0]?.searchParams.get("order")).toBe("newest");
  });

  it("filters by names, never by ids or procedure keys", async () => {
    renderRolls();
    const form = screen.getByRole("form", { name: "Filter rolls" });

    expect(await within(form).findByRole("option", { name: "Gudja, day 1" })).toBeInTheDocument();
    expect(await within(form).findByRole("option", { name: "Fallschirmjäger-Brigade Ramcke" })).toBeInTheDocument();
    expect(await within(form).findByRole("option", { name: "Set-up proximity" })).toBeInTheDocument();
    expect(form).not.toHaveTextContent(/gb\.weather|n43\.|Battle id|Force id/);
    await userEvent.selectOptions(screen.getByLabelText("Procedure"), "Dawn weather");
    await userEvent.selectOptions(screen.getByLabelText("Battle"), "Gudja, day 1");
    await userEvent.click(within(form).getByRole("button", { name: "Filter" }));

    await vi.waitFor(() => expect(rollRequests()).toHaveLength(2));
    const filtered = rollRequests()[1]!.searchParams;
    expect(filtered.get("procedure")).toBe("gb.weather");
    expect(filtered.get("battle")).toBe("12");
    expect(filtered.get("order")).toBe("newest");
  });

  it("shows the dice commitment, the revealed seeds and how to verify them", async () => {
    renderRolls();
    await userEvent.click(screen.getByText("Provably fair dice"));

    expect(await screen.findByLabelText("Commitment")).toHaveTextContent("c0ffee".repeat(10) + "abcd");
    const seeds = screen.getByRole("table", { name: "Revealed day seeds" });
    expect(within(seeds).getByText("5eed".repeat(16))).toBeInTheDocument();
    const link = within(seeds).getByRole("link", { name: "Day 1 dice (JSON)" });
    expect(link).toHaveAttribute("href", "/api/v1/campaigns/malta/days/1/dice/");
    expect(screen.getByText("python -m rules_engine verify day-1-dice.json")).toBeInTheDocument();
    expect(screen.getByText(/Rolls now come from day 2's seed/)).toBeInTheDocument();
  });
});
