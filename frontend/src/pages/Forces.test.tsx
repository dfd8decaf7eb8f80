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
  activation_label: null,
  in_reserve: null,
  supply_situation: null,
  supply_situation_label: null,
  ammo_low_markers: null,
  wiped_out_day: null,
  fuel_state: null,
  fuel_state_label: null,
  sector: null,
  sector_name: null,
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

  it("lists its stands by their labels and equipment names, never their codes", async () => {
    const stand = { battalion: 9, battalion_code: "G1", equipment: null, equipment_name: null, attachment_kind_label: "" };
    const stands: Schemas["Stand"][] = [
      { ...stand, id: 1, label: "1. Kp", stand_type: "at_gun", stand_type_label: "AT gun", status: "destroyed", status_label: "Destroyed", equipment: "de_pak38", equipment_name: "5cm PaK 38" },
      { ...stand, id: 2, label: "HQ", stand_type: "heavy_weapons", stand_type_label: "Heavy weapons", status: "ok", status_label: "OK", attached: true, attachment_kind: "heavy_weapons", attachment_kind_label: "Heavy weapons" },
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
