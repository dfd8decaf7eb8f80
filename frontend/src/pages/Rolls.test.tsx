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
});
