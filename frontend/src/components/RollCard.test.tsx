import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { RollCard } from "./RollCard";

const ROLL: Schemas["Roll"] = {
  id: "0b5e3c1a-6f0d-4c49-9a57-2f8d3e1b7c40",
  table_roll: "",
  day: 1,
  segment: "late morning",
  segment_label: "Late morning",
  battle: null,
  force: "00000000-0000-4000-8000-000000000003",
  battalion: "G1",
  visibility: "side",
  visibility_label: "Its side",
  side: 1,
  procedure: "gb.barrage_delay",
  change_choices: {},
  override_of: null,
  stream: "day/1/barrage",
  inputs: {},
  result: {},
  output: {
    procedure: "gb.barrage_delay",
    title: "Barrage delay",
    subject: "G1",
    rule: {
      system: "Great Battles of WWII",
      seed_file: "004_44df3cc44dc4327c.txt",
      section: "Night Phase",
      source_title: "Great Battles of WWII charts",
      text: "Great Battles of WWII charts, Night Phase",
    },
    dice: [{ dice: "2d6", faces: [5, 3], total: 8, text: "2d6 [5+3] = 8" }],
    natural: 8,
    modifiers: [
      { name: "inferior artillery", value: -1, applies_to: "roll", applies_to_label: "Roll" },
      { name: "on-call", value: 1, applies_to: "threshold", applies_to_label: "Threshold" },
    ],
    score: 7,
    threshold_base: 6,
    threshold: 7,
    comparison: "≥",
    comparison_label: "at least",
    cell: null,
    outcome: true,
    outcome_text: "on time",
    line: "Barrage delay: 2D6 [5, 3] = 8 -1 inferior artillery = 7 vs ≥ 7 → on time",
  },
  line: "Barrage delay: 2D6 [5, 3] = 8 -1 inferior artillery = 7 vs ≥ 7 → on time",
  rule: "Great Battles of WWII charts, Night Phase",
  actor: null,
  created_at: "2024-01-01T00:00:00Z",
};

describe("the roll card", () => {
  it("is one line, what and when and the outcome, until opened", async () => {
    const { container } = render(<RollCard roll={ROLL} />);
    const line = container.querySelector("summary")!;

    expect(line).toHaveTextContent("Barrage delay · day 1 · late morning · G1: on time");
    expect(screen.getByText("Dice")).not.toBeVisible();
    await userEvent.click(line);
    expect(screen.getByText("Dice")).toBeVisible();
  });

  it("names the chart's cell it read, without a threshold it does not have", () => {
    const output = { ...ROLL.output!, threshold: null, threshold_base: null, comparison: null, cell: "Germany/Italy" };
    render(<RollCard roll={{ ...ROLL, output }} />);

    expect(screen.queryByText("Threshold")).toBeNull();
    expect(screen.getByText("Read from the chart").nextElementSibling).toHaveTextContent("Germany/Italy");
  });

  it("shows dice, faces, modifiers, threshold, outcome and the rule in words", () => {
    const { container } = render(<RollCard roll={ROLL} />);

    expect(screen.getByText("Dice").nextElementSibling).toHaveTextContent("2d6 [5+3] = 8");
    expect(screen.getByText("-1 inferior artillery, +1 on-call (to threshold)")).toBeInTheDocument();
    expect(screen.getByText("≥ 7")).toBeInTheDocument();
    expect(screen.getByText("Outcome").nextElementSibling).toHaveTextContent("on time");
    expect(screen.getByText("Great Battles of WWII charts, Night Phase")).toBeInTheDocument();
    expect(container).toHaveTextContent("day 1 · late morning · G1");
    expect(container).not.toHaveTextContent(/\.txt|gb\.barrage_delay/);
  });

  it("falls back to the recorded line when the roll has no output (an umpire's override)", () => {
    const { container } = render(<RollCard roll={{ ...ROLL, result: { override: true }, output: null }} />);

    expect(container.querySelector("summary")).toHaveTextContent("Barrage delay: 2D6 [5, 3]");
    expect(screen.queryByText("Dice")).not.toBeInTheDocument();
  });

  it("says hidden where the outcome quotes strengths the reader does not see", () => {
    const output = { ...ROLL.output!, outcome_text: null, line: null };
    const { container } = render(<RollCard roll={{ ...ROLL, output, line: null }} />);

    expect(container.querySelector("summary")).toHaveTextContent("Barrage delay · day 1 · late morning · G1: hidden");
    expect(container).not.toHaveTextContent("on time");
  });
});
