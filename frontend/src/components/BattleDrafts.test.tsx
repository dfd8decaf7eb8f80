import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { uid } from "../test/fixtures";
import { DraftComparison, SideDraft } from "./BattleDrafts";

const BATTLE: Schemas["Battle"] = {
  id: "7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e",
  day: 1,
  sector: 19,
  sector_name: "Gudja",
  battle_type: "Local Attack",
  battle_type_label: "Local Attack",
  status: "in_progress",
  status_label: "In progress",
  attacker: 1,
  defender: 2,
  winner: null,
  continues: null,
  feeds: [],
  battalions: ["G1", "W1"],
  setup: {},
  lull_checks_from_turn: null,
  lulls: [],
  report: null,
  draft_side: 1,
  actions: ["draft"],
  actions_labels: ["Draft your side's report"],
  papers: [],
};

function stand(id: number, label: string, code: string): Schemas["Stand"] {
  return {
    id: uid(id),
    battalion: uid(1),
    battalion_code: code,
    label,
    stand_type: "infantry",
    stand_type_label: "Infantry",
    status: "ok",
    status_label: "OK",
    equipment: null,
    equipment_name: null,
    attachment_kind_label: "",
    may_be_ordered: true,
  };
}

const STANDS = { G1: [stand(1, "1. Kp", "G1")], W1: [stand(3, "A Coy", "W1")] };

// The Axis drafts its own G1 in full and only the stands of the Allied W1, as the API lists.
const OWN = ["destroyed", "suppressed", "activation_points_spent", "barrage_rounds_spent", "supply_situation", "objectives"] as const;
const DRAFTED: Schemas["DraftableBattalion"][] = [
  { code: "G1", draftable: [...OWN], draftable_labels: [] },
  { code: "W1", draftable: ["destroyed", "suppressed"], draftable_labels: [] },
];

function draft(side: number, sideName: string, report: unknown): Schemas["Draft"] {
  return {
    side,
    side_name: sideName,
    status: "filed",
    status_label: "Filed, awaiting the umpire",
    author: "ada",
    updated_at: "2026-11-25T20:00:00Z",
    report,
  };
}

describe("a side's draft report", () => {
  it("fills in the side's draft, says whether the other side filed, and saves with PUT draft/", async () => {
    const filed = { battalions: [{ code: "G1", destroyed: ["1. Kp"], activation_points_spent: 3 }, { code: "W1" }] };
    const seen = stubFetch(
      jsonResponse(200, { battle: "7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e", side: 1, draft: draft(1, "Axis", filed), opponent_filed: true, battalions: DRAFTED, draftable: ["winner", "sector_owner", "turn"] }),
      jsonResponse(200, { battle: "7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e", side: 1, draft: draft(1, "Axis", filed), opponent_filed: true, battalions: DRAFTED, draftable: ["winner", "sector_owner", "turn"] }),
    );
    const sides = [
      { id: 1, name: "Axis" },
      { id: 2, name: "Allied" },
    ];
    renderWithProviders(<SideDraft slug="malta-1942" battle={BATTLE} stands={STANDS} sides={sides} />);

    expect(await screen.findByText(/The other side has filed its draft\./)).toBeInTheDocument();
    expect(screen.getByLabelText("1. Kp")).toHaveDisplayValue("destroyed");
    // One battalion asks for points, supply and objectives: the side's own, not the enemy's.
    expect(screen.getByLabelText("Activation points spent")).toHaveDisplayValue("3");
    expect(screen.getAllByLabelText("Supply at the end")).toHaveLength(1);
    expect(screen.getAllByLabelText("Objectives taken (one a line)")).toHaveLength(1);
    const w1 = screen.getByRole("group", { name: "Battalion W1" });
    expect(within(w1).queryByLabelText("Activation points spent")).toBeNull();
    expect(within(w1).queryByLabelText("Barrage rounds fired")).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText("A Coy"), "suppressed");
    await userEvent.selectOptions(screen.getByLabelText("Winner"), "Axis");
    await userEvent.click(screen.getByRole("button", { name: "Save draft" }));

    await screen.findByText(/Draft saved/);
    const request = seen[1]!;
    expect(request.method).toBe("PUT");
    expect(request.url).toMatch(/\/api\/v1\/campaigns\/malta-1942\/battles\/7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e\/draft\/$/);
    expect(await request.json()).toEqual({
      winner: 1,
      battalions: [
        { code: "G1", destroyed: ["1. Kp"], activation_points_spent: 3 },
        { code: "W1", suppressed: ["A Coy"] },
      ],
    });
  });

  it("shows the API's errors next to the field they name", async () => {
    const message = "battalion W1 has no stand B Coy";
    stubFetch(
      jsonResponse(200, { battle: "7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e", side: 1, draft: null, opponent_filed: false, battalions: DRAFTED, draftable: ["winner", "sector_owner", "turn"] }),
      jsonResponse(400, {
        error: { code: "invalid", message, fields: { "battalions[0].barrage_rounds_spent": [message] }, rule: null },
      }),
    );
    renderWithProviders(<SideDraft slug="malta-1942" battle={BATTLE} stands={STANDS} />);

    expect(await screen.findByText(/Your side has not filed a draft yet\. The other side has not filed yet\./)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Save draft" }));

    const field = screen.getByLabelText("Barrage rounds fired");
    await waitFor(() => expect(field).toHaveAttribute("aria-invalid", "true"));
    expect(field).toHaveAccessibleDescription(message);
  });
});

const ITEM = { value: null, stand_now: null, stand_now_label: null };
const COMPARISON: Schemas["DraftComparison"] = {
  battle: "7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e",
  revision: "rev-1",
  drafts: [draft(1, "Axis", {}), draft(2, "Allied", {})],
  conflicts: 1,
  proposal: {},
  items: [
    {
      ...ITEM,
      key: "battalions[G1].stands[1. Kp]",
      kind: "stand",
      kind_label: "Stand",
      battalion: "G1",
      stand: "1. Kp",
      status: "conflict",
      choose: true,
      status_label: "The sides disagree",
      text: null,
      stand_now: "ok",
      stand_now_label: "OK",
      versions: [
        { side: 1, side_name: "Axis", value: "suppressed", text: "suppressed" },
        { side: 2, side_name: "Allied", value: "destroyed", text: "destroyed" },
      ],
    },
    {
      ...ITEM,
      key: "battalions[G1].activation_points_spent",
      kind: "activation_points_spent",
      kind_label: "Activation points spent",
      battalion: "G1",
      stand: null,
      status: "agreed",
      choose: false,
      status_label: "Both sides agree",
      value: 3,
      text: "3",
      versions: [],
    },
    {
      ...ITEM,
      key: "winner",
      kind: "winner",
      kind_label: "Winner",
      battalion: null,
      stand: null,
      status: "one_side",
      choose: false,
      status_label: "Entered by one side only",
      value: 1,
      text: "Axis",
      versions: [{ side: 1, side_name: "Axis", value: 1, text: "Axis" }],
    },
  ],
};

describe("the umpire's comparison of the drafts", () => {
  it("shows both versions of a conflict side by side and confirms the chosen one with the revision", async () => {
    const seen = stubFetch(
      jsonResponse(200, COMPARISON),
      jsonResponse(200, { ...BATTLE, status: "reported", status_label: "Reported" }),
    );
    renderWithProviders(<DraftComparison slug="malta-1942" battle={BATTLE} />);

    const conflict = await screen.findByRole("group", { name: "G1 1. Kp (now ok)" });
    expect(within(conflict).getByRole("radio", { name: "Axis: suppressed" })).toBeInTheDocument();
    expect(screen.getByText("Both sides agree").nextElementSibling).toHaveTextContent("G1: Activation points spent: 3");
    expect(screen.getByText("Entered by one side only").nextElementSibling).toHaveTextContent("Winner: Axis (Axis only)");
    await userEvent.click(within(conflict).getByRole("radio", { name: "Allied: destroyed" }));
    await userEvent.click(screen.getByRole("button", { name: "Confirm as the battle's report" }));

    await screen.findByText("Report confirmed.");
    const request = seen[1]!;
    expect(request.url).toMatch(/\/battles\/7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e\/drafts\/confirm\/$/);
    expect(request.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await request.json()).toEqual({ revision: "rev-1", choices: { "battalions[G1].stands[1. Kp]": 2 } });
  });

  it("names an unchosen conflict next to it, and tells the umpire to reload on a stale revision", async () => {
    const unchosen = "choose a side's version of G1 1. Kp";
    const stale = "A draft changed since revision rev-1.";
    const seen = stubFetch(
      jsonResponse(200, COMPARISON),
      jsonResponse(400, {
        error: { code: "invalid", message: unchosen, fields: { "choices.battalions[G1].stands[1. Kp]": [unchosen] }, rule: null },
      }),
      jsonResponse(409, { error: { code: "conflict", message: stale, fields: { revision: [stale] }, rule: null } }),
      jsonResponse(200, { ...COMPARISON, revision: "rev-2" }),
    );
    renderWithProviders(<DraftComparison slug="malta-1942" battle={BATTLE} />);

    const conflict = await screen.findByRole("group", { name: "G1 1. Kp (now ok)" });
    await userEvent.click(screen.getByRole("button", { name: "Confirm as the battle's report" }));
    await waitFor(() => expect(conflict).toHaveAccessibleDescription(unchosen));

    await userEvent.click(within(conflict).getByRole("radio", { name: "Axis: suppressed" }));
    await userEvent.click(screen.getByRole("button", { name: "Confirm as the battle's report" }));
    expect(await screen.findByText(/reload it and choose again/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Confirm as the battle's report" })).toBeDisabled();

    await userEvent.click(screen.getByRole("button", { name: "Reload the drafts" }));
    await waitFor(() => expect(seen).toHaveLength(4));
    await waitFor(() => expect(screen.getByRole("button", { name: "Confirm as the battle's report" })).toBeEnabled());
    expect(within(conflict).getByRole("radio", { name: "Axis: suppressed" })).not.toBeChecked();
  });
});
