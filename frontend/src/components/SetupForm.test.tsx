import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { CAMPAIGN } from "../test/fixtures";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { SetupForm } from "./SetupForm";

const BATTLE = {
  id: 7,
  day: 2,
  sector: "Mdina",
  status: "planned",
  attacker: 1,
  defender: 2,
  battalions: ["G1", "W1"],
  setup: {},
} as unknown as Schemas["Battle"];

function input(name: string, extra: Partial<Schemas["SetupInput"]>): Schemas["SetupInput"] {
  return { name, label: name, type: "str", value_type: "text", value_type_label: "Text", needed: true, ...extra };
}

const QUESTIONS: Schemas["SetupQuestion"][] = [
  {
    step: "n43.setup_proximity",
    procedure: "n43.setup_proximity",
    title: "Set-up proximity",
    side: null,
    at_table: false,
    inputs: [
      input("terrain", { label: "Terrain between the forces", value_type: "choice", choices: ["Constricted Terrain", "Open Terrain"] }),
      input("scale", { label: "Table size", value_type: "choice", choices: ["large", "medium"], needed: false, default: "medium" }),
    ],
  },
  {
    step: "n43.planned_fire@Axis",
    procedure: "n43.planned_fire",
    title: "Planned artillery fire",
    side: 1,
    at_table: false,
    inputs: [input("long_lull_reroll", { label: "Rerolled after a long lull", value_type: "boolean", needed: false, default: false })],
  },
  { step: "n43.troop_reaction@Allied", procedure: "n43.troop_reaction", title: "Troop reaction", side: 2, inputs: [], at_table: false },
];

afterEach(() => vi.unstubAllGlobals());

describe("the set-up form", () => {
  it("asks each step's inputs under its side and posts them typed, by step", async () => {
    const seen = stubFetch(jsonResponse(200, QUESTIONS), jsonResponse(200, { ...BATTLE, status: "set_up" }));
    renderWithProviders(<SetupForm campaign={CAMPAIGN} battle={BATTLE} />);

    expect(await screen.findByRole("group", { name: "Set-up proximity · both sides" })).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Planned artillery fire · Axis" })).toBeInTheDocument();
    // A step that asks nothing is not shown.
    expect(screen.queryByRole("group", { name: /Troop reaction/ })).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText("Terrain between the forces"), "Open Terrain");
    await userEvent.selectOptions(screen.getByLabelText("Rerolled after a long lull"), "yes");
    await userEvent.click(screen.getByRole("button", { name: "Roll the set-up" }));

    await waitFor(() => expect(seen).toHaveLength(2));
    expect(seen[1]!.url).toMatch(/\/battles\/7\/setup\/$/);
    expect(await seen[1]!.json()).toEqual({
      inputs: { "n43.setup_proximity": { terrain: "Open Terrain" }, "n43.planned_fire@Axis": { long_lull_reroll: true } },
      faces: {},
    });
  });

  it("takes the faces of a step the caller rolls at the table, in order", async () => {
    const atTable = QUESTIONS.map((q) => ({ ...q, at_table: q.step === "n43.setup_proximity" }));
    const seen = stubFetch(jsonResponse(200, atTable), jsonResponse(200, { ...BATTLE, status: "set_up" }));
    renderWithProviders(<SetupForm campaign={CAMPAIGN} battle={BATTLE} />);

    const proximity = await screen.findByRole("group", { name: "Set-up proximity · both sides" });
    expect(screen.getAllByLabelText("Faces rolled at the table")).toHaveLength(1);
    await userEvent.type(within(proximity).getByLabelText("Faces rolled at the table"), "3");
    await userEvent.selectOptions(screen.getByLabelText("Terrain between the forces"), "Open Terrain");
    await userEvent.click(screen.getByRole("button", { name: "Roll the set-up" }));

    await waitFor(() => expect(seen).toHaveLength(2));
    expect(await seen[1]!.json()).toEqual({
      inputs: { "n43.setup_proximity": { terrain: "Open Terrain" } },
      faces: { "n43.setup_proximity": [3] },
    });
  });

  it("shows a refused input's error next to it and the refusal next to the button", async () => {
    const message = "Set-up proximity: terrain is required.";
    stubFetch(
      jsonResponse(200, QUESTIONS),
      jsonResponse(400, {
        error: { code: "invalid", message, fields: { "inputs.n43.setup_proximity.terrain": [message] }, rule: "1943, 7) Setup Proximity" },
      }),
    );
    renderWithProviders(<SetupForm campaign={CAMPAIGN} battle={BATTLE} />);

    await userEvent.click(await screen.findByRole("button", { name: "Roll the set-up" }));

    const terrain = screen.getByLabelText("Terrain between the forces");
    await waitFor(() => expect(terrain).toHaveAttribute("aria-invalid", "true"));
    expect(terrain).toHaveAccessibleDescription(message);
    const refusal = screen.getByRole("button", { name: "Roll the set-up" }).previousElementSibling!;
    expect(refusal).toHaveTextContent(message);
    expect(refusal).toHaveTextContent("Rule: 1943, 7) Setup Proximity");
  });
});
