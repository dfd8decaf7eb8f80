import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { BattalionNode, CopsActionPointsForm, DivisionEffects } from "./Forces";

// An identified enemy battalion whose side hides strengths: public fields only.
const MASKED: Schemas["BattalionTree"] = {
  id: "00000000-0000-4000-8000-000000000009",
  code: "G1",
  name: "I./FJR 2",
  side: 1,
  force: "00000000-0000-4000-8000-000000000003",
  battlegroup: "00000000-0000-4000-8000-000000000002",
  quality: null,
  stands_started: null,
  activation: null,
  activation_label: null,
  in_reserve: null,
  supply_situation: null,
  supply_situation_label: null,
  ammo_low_markers: null,
  wiped_out_day: null,
  fuel_state: null,
  fuel_state_label: null,
  reports_fuel: null,
  sector: null,
  sector_name: null,
  stands: [],
};

describe("a battalion of the order of battle", () => {
  it("shows an identified enemy battalion by name only, with no placeholder for what fog hides", async () => {
    render(
      <ul>
        <BattalionNode battalion={MASKED} />
      </ul>,
    );
    await userEvent.click(screen.getByText("G1"));

    expect(screen.getByText("I./FJR 2")).toBeInTheDocument();
    expect(screen.getByText("identified")).toBeInTheDocument();
    expect(screen.queryByText("unknown")).not.toBeInTheDocument();
    expect(screen.queryByText("Quality")).not.toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "stands of G1" })).not.toBeInTheDocument();
    expect(screen.getByText("Identified; its side does not reveal its strength.")).toBeInTheDocument();
  });

  it("lists its stands by their labels and equipment names, never their codes", async () => {
    const stand = { battalion: "00000000-0000-4000-8000-000000000009", battalion_code: "G1", equipment: null, equipment_name: null, attachment_kind_label: "" };
    const stands: Schemas["Stand"][] = [
      { ...stand, id: "00000000-0000-4000-8000-000000000001", label: "1. Kp", stand_type: "at_gun", stand_type_label: "AT gun", status: "destroyed", status_label: "Destroyed", may_be_ordered: false, equipment: "de_pak38", equipment_name: "5cm PaK 38" },
      { ...stand, id: "00000000-0000-4000-8000-000000000002", label: "HQ", stand_type: "heavy_weapons", stand_type_label: "Heavy weapons", status: "ok", status_label: "OK", may_be_ordered: true, attached: true, attachment_kind: "heavy_weapons", attachment_kind_label: "Heavy weapons" },
    ];
    render(
      <ul>
        <BattalionNode battalion={{ ...MASKED, quality: "Veteran", stands }} />
      </ul>,
    );
    await userEvent.click(screen.getByText("G1"));

    const list = screen.getByRole("list", { name: "stands of G1" });
    expect(list).toHaveTextContent("1. Kp");
    expect(list).toHaveTextContent("AT gun");
    expect(list).toHaveTextContent("5cm PaK 38");
    expect(list).not.toHaveTextContent(/at_gun|heavy_weapons|de_pak38/);
    expect(screen.getByRole("img", { name: "Destroyed" })).toBeInTheDocument();
    expect(screen.getByText("attached: Heavy weapons")).toBeInTheDocument();
    expect(screen.getByText("Veteran")).toBeInTheDocument();
  });
});

describe("a division's force status", () => {
  // The Folgore as its own side reads it on day 2: what the API serves a player for their division.
  const status = {
    force: { id: 4, name: "Folgore", activation_points: 5 },
    battalions: [
      { code: "I1", supply_situation: "OK" },
      { code: "I2", supply_situation: "isolated" },
    ],
    latest_night_report: {
      day: 1,
      body: { day: 1, side: "Axis", divisions: [{ name: "Ramcke", before: 4, carried: 1 }, { name: "Folgore", before: 6, carried: 3 }] },
    },
    cops_isolated_from_source: true,
  } as unknown as Schemas["ForceStatus"];

  it("shows its pool, what it carried over the night, its C Ops' isolation and its isolated battalions", () => {
    const { container: facts } = render(<DivisionEffects status={status} />);

    expect(facts).toHaveTextContent("Division activation points5");
    expect(facts).toHaveTextContent("Carried over night 13 of 6");
    expect(facts).toHaveTextContent("C Opsisolated from its source of supply: its action-point roll takes −10%");
    expect(facts).toHaveTextContent("Isolated battalionsI2");
  });

  it("leaves out what the API does not serve (no division pools, no variant 1)", () => {
    const plain = {
      ...status,
      force: { ...status.force, activation_points: null },
      latest_night_report: null,
      cops_isolated_from_source: null,
      battalions: [{ code: "I1", supply_situation: "OK" }],
    } as unknown as Schemas["ForceStatus"];
    render(<DivisionEffects status={plain} />);

    expect(screen.queryByText("Division activation points")).not.toBeInTheDocument();
    expect(screen.queryByText(/Carried over/)).not.toBeInTheDocument();
    expect(screen.queryByText("C Ops")).not.toBeInTheDocument();
    expect(screen.getByText("none")).toBeInTheDocument();
  });
});

describe("a C Ops' action points", () => {
  afterEach(() => vi.unstubAllGlobals());
  const campaign = {
    slug: "malta",
    segment_turns: [3, 4],
    activation_points_help: "Points come in when the umpire rolls a C Ops' action points.",
  } as unknown as Schemas["Campaign"];
  const qualities = { cops_qualities: ["Raw", "Average"], cops_qualities_labels: ["Raw", "Average"] } as Pick<
    Schemas["OrderOfBattle"],
    "cops_qualities" | "cops_qualities_labels"
  >;
  const force = (actions: Schemas["ForceActionEnum"][], labels: string[]) =>
    ({ id: "00000000-0000-4000-8000-000000000003", name: "Eastern Infantry Command", actions, actions_labels: labels }) as unknown as Schemas["ForceTree"];

  it("rolls at the quality and turn picked, saving them only when the API offers it", async () => {
    const seen = stubFetch(jsonResponse(201, { id: "r", procedure: "gb.variant.cops_action_points", line: "3 actions" }));
    renderWithProviders(
      <CopsActionPointsForm campaign={campaign} force={force(["roll_cops_action_points"], ["Roll the C Ops' action points"])} qualities={qualities} />,
    );

    expect(screen.getByText(campaign.activation_points_help)).toBeInTheDocument();
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument(); // no variant 2: nothing to save them as
    const roll = screen.getByRole("button", { name: "Roll the C Ops' action points" });
    expect(roll).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText("Turn"), "4");
    await userEvent.selectOptions(screen.getByLabelText("Quality of its C Ops"), "Average");
    await userEvent.click(roll);

    await vi.waitFor(() => expect(seen).toHaveLength(1));
    const sent = seen[0];
    expect(sent && new URL(sent.url).pathname).toBe(
      "/api/v1/campaigns/malta/forces/00000000-0000-4000-8000-000000000003/cops-action-points/",
    );
    expect(await sent?.json()).toEqual({ turn: 4, quality: "Average", convert: false });
  });

  it("saves them as activation points by default when the API offers it", () => {
    renderWithProviders(
      <CopsActionPointsForm
        campaign={campaign}
        force={force(["roll_cops_action_points", "save_action_points"], ["Roll", "Save them as the division's activation points"])}
        qualities={qualities}
      />,
    );
    expect(screen.getByRole("checkbox", { name: "Save them as the division's activation points" })).toBeChecked();
  });
});
