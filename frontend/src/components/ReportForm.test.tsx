import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { CAMPAIGN, uid } from "../test/fixtures";
import { ReportForm } from "./ReportForm";

const BATTLE: Schemas["Battle"] = {
  id: "7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e",
  day: 1,
  sector: 19,
  sector_name: "Gudja",
  battle_type: "Local Attack",
  battle_type_label: "Local Attack",
  status: "set_up",
  status_label: "Set up",
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
  draft_side: null,
  actions: ["report"],
  actions_labels: ["Report it"],
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

const STANDS = { G1: [stand(1, "1. Kp", "G1"), stand(2, "2. Kp", "G1")], W1: [stand(3, "A Coy", "W1")] };

describe("the battle report form", () => {
  it("shows the API's field errors next to the fields they name", async () => {
    const message = "Ensure this value is greater than or equal to 0.";
    stubFetch(
      jsonResponse(400, {
        error: {
          code: "invalid",
          message: `battalions[1].barrage_rounds_spent: ${message}`,
          fields: { "battalions[1].barrage_rounds_spent": [message], "battalions[0].code": ["not in battle 12"] },
          rule: null,
        },
      }),
    );
    renderWithProviders(<ReportForm slug="malta-1942" battle={BATTLE} stands={STANDS} />);

    await userEvent.type(screen.getAllByLabelText("Barrage rounds fired")[1]!, "-1");
    await userEvent.click(screen.getByRole("button", { name: "Submit report" }));

    const field = screen.getAllByLabelText("Barrage rounds fired")[1]!;
    await waitFor(() => expect(field).toHaveAttribute("aria-invalid", "true"));
    expect(field).toHaveAccessibleDescription(message);
    expect(screen.getAllByLabelText("Barrage rounds fired")[0]).toHaveAttribute("aria-invalid", "false");
    expect(screen.getByText("not in battle 12")).toBeInTheDocument();
  });

  it("posts the stands lost or suppressed, points spent and objectives with an idempotency key", async () => {
    const seen = stubFetch(jsonResponse(200, { ...BATTLE, status: "reported", report: { battalions: [] } }));
    renderWithProviders(<ReportForm slug="malta-1942" battle={BATTLE} stands={STANDS} />);

    await userEvent.selectOptions(screen.getByLabelText("1. Kp"), "destroyed");
    await userEvent.selectOptions(screen.getByLabelText("2. Kp"), "suppressed");
    await userEvent.type(screen.getAllByLabelText("Activation points spent")[0]!, "2");
    await userEvent.type(screen.getAllByLabelText("Objectives taken (one a line)")[0]!, "Gudja airfield");
    await userEvent.click(screen.getByRole("button", { name: "Submit report" }));

    await screen.findByText("Report saved.");
    const request = seen[0]!;
    expect(request.url).toMatch(/\/api\/v1\/campaigns\/malta-1942\/battles\/7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e\/report\/$/);
    expect(request.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await request.json()).toEqual({
      battalions: [
        {
          code: "G1",
          destroyed: ["1. Kp"],
          suppressed: ["2. Kp"],
          activation_points_spent: 2,
          objectives: [{ name: "Gudja airfield" }],
        },
        { code: "W1" },
      ],
    });
  });

  it("shows each side's points and rounds left, and a refused report next to Submit", async () => {
    const message = "Activation pool would go below zero: Axis reports 9 spent, has 8.";
    stubFetch(
      jsonResponse(400, {
        error: { code: "pool_overspent", message, fields: { battalions: [message] }, rule: "battle report: pools" },
      }),
    );
    renderWithProviders(<ReportForm slug="malta-1942" battle={BATTLE} stands={STANDS} sides={CAMPAIGN.sides} />);

    const pools = screen.getByLabelText("Left to spend");
    expect(pools).toHaveTextContent("Axis8 activation points (cap 20), 6 barrage rounds left");
    expect(pools).toHaveTextContent("Allied13 activation points, 4 barrage rounds left");
    await userEvent.click(screen.getByRole("button", { name: "Submit report" }));

    const refusal = await screen.findByRole("alert");
    expect(refusal).toHaveTextContent(message);
    expect(refusal.nextElementSibling).toBe(screen.getByRole("button", { name: "Submit report" }));
  });

  it("asks the fuel of the vehicle battalions only, and shows the API's refusal next to it", async () => {
    const message = "battalion G1 has no vehicle companies, so no fuel state";
    const seen = stubFetch(
      jsonResponse(400, {
        error: { code: "invalid", message, fields: { "battalions[0].fuel_state": [message] }, rule: null },
      }),
    );
    renderWithProviders(<ReportForm slug="malta-1942" battle={BATTLE} stands={STANDS} fuel={{ G1: "Full" }} />);

    const fuel = screen.getByLabelText("Fuel at the end"); // one: W1 keeps no fuel state
    expect(fuel).toHaveDisplayValue("unchanged (Full)");
    await userEvent.selectOptions(fuel, "empty");
    await userEvent.click(screen.getByRole("button", { name: "Submit report" }));

    await waitFor(() => expect(fuel).toHaveAccessibleDescription(message));
    expect(await seen[0]!.json()).toEqual({ battalions: [{ code: "G1", fuel_state: "empty" }, { code: "W1" }] });
  });
});
