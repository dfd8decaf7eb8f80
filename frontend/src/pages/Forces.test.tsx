import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { BattalionNode } from "./Forces";

// An identified enemy battalion whose side hides strengths: public fields only.
const MASKED: Schemas["BattalionTree"] = {
  id: 9,
  code: "G1",
  name: "I./FJR 2",
  side: 1,
  force: 3,
  battlegroup: 2,
  quality: null,
  stands_started: null,
  activation: null,
  in_reserve: null,
  supply_situation: null,
  ammo_low_markers: null,
  wiped_out_day: null,
  fuel_state: null,
  stands: [],
};

describe("a battalion of the order of battle", () => {
  it("renders masked fields as unknown without crashing", async () => {
    render(
      <ul>
        <BattalionNode battalion={MASKED} />
      </ul>,
    );
    await userEvent.click(screen.getByText("G1"));

    expect(screen.getAllByText("unknown")).toHaveLength(6);
    expect(screen.getByText("Stands unknown")).toBeInTheDocument();
  });

  it("lists its stands with status icons when they are visible", async () => {
    const stands: Schemas["Stand"][] = [
      { id: 1, battalion: 9, battalion_code: "G1", label: "1. Kp", stand_type: "infantry", status: "destroyed", equipment: null },
      { id: 2, battalion: 9, battalion_code: "G1", label: "HQ", stand_type: "hq", status: "ok", equipment: null, attached: true, attachment_kind: "hq" },
    ];
    render(
      <ul>
        <BattalionNode battalion={{ ...MASKED, quality: "Veteran", stands }} />
      </ul>,
    );
    await userEvent.click(screen.getByText("G1"));

    const list = screen.getByRole("list", { name: "stands of G1" });
    expect(list).toHaveTextContent("1. Kp");
    expect(screen.getByRole("img", { name: "destroyed" })).toBeInTheDocument();
    expect(screen.getByText("attached: hq")).toBeInTheDocument();
    expect(screen.getByText("Veteran")).toBeInTheDocument();
  });
});
