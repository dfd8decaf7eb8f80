import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { STAND_TYPE_COLOURS } from "../lib/palette";
import { DivisionPoolsTable, FiguresTable, StatisticsTable, figureSeries, strengthSeries } from "./Statistics";

const AXIS = { id: 1, name: "Axis", is_axis: true };
const ALLIED = { id: 2, name: "Allied", is_axis: false };

// Day 1: the Axis has 6 infantry stands, 2 of them in reserve; day 2 an older tally without in_action.
const FIGURES = {
  stands_lost: 2,
  stands_suppressed: 1,
  stands_replaced: 1,
  activation_points_earned: 0,
  activation_points_spent: 3,
  activation_points_carried: 2,
  barrage_rounds_fired: 1,
  barrage_rounds_replenished: 4,
  sectors_held: 5,
  victory_points: 2,
};
// What the Axis player sees of the Allied figures when the Allies hide their strengths.
const ENEMY_FIGURES = {
  ...FIGURES,
  stands_lost: null,
  stands_suppressed: null,
  stands_replaced: null,
  activation_points_earned: null,
  activation_points_spent: null,
  activation_points_carried: null,
  barrage_rounds_fired: null,
  barrage_rounds_replenished: null,
};

const STATS: Schemas["Statistics"] = {
  sides: [AXIS, ALLIED],
  figures: [
    { key: "stands_lost", title: "Stands lost", after_night: false },
    { key: "stands_replaced", title: "Stands replaced", after_night: false },
    { key: "activation_points_carried", title: "Activation points carried over", after_night: true },
    { key: "sectors_held", title: "Sectors held", after_night: false },
  ],
  links: { csv: "/api/v1/campaigns/malta/statistics/?format=csv" },
  days: [
    {
      day: 1,
      date: "1942-07-10",
      night_done: true,
      sides: [
        {
          side: 1,
          activation_points: 8,
          division_activation_points: {},
          barrage_rounds: 10,
          strength: {
            infantry: { ok: 5, suppressed: 1, destroyed: 0, in_action: 4 },
            hq: { ok: 1, suppressed: 0, destroyed: 0, in_action: 1 },
          },
          strength_labels: { infantry: "Infantry", hq: "HQ" },
          ...FIGURES,
        },
        {
          side: 2,
          activation_points: 3,
          division_activation_points: {},
          barrage_rounds: 10,
          strength: {
            hq: { ok: 1, suppressed: 0, destroyed: 0, in_action: 1 },
            infantry: { ok: 4, suppressed: 0, destroyed: 0, in_action: 4 },
          },
          strength_labels: { hq: "HQ", infantry: "Infantry" },
          ...FIGURES,
        },
      ],
    },
    {
      day: 2,
      date: "1942-07-11",
      night_done: false,
      sides: [
        {
          side: 1,
          activation_points: 6,
          division_activation_points: {},
          barrage_rounds: 8,
          strength: { infantry: { ok: 3, suppressed: 1, destroyed: 2, in_action: null } },
          strength_labels: { infantry: "Infantry" },
          ...FIGURES,
          stands_lost: 3,
          activation_points_carried: null,
        },
        {
          side: 2,
          activation_points: null,
          division_activation_points: null,
          barrage_rounds: null,
          strength: null,
          strength_labels: null,
          ...ENEMY_FIGURES,
        },
      ],
    },
  ],
};

describe("the strength charts", () => {
  it("count only the stands in action, on the table", () => {
    const { rows } = strengthSeries(STATS, AXIS);

    expect(rows[0]).toEqual({ day: "Day 1", infantry: 4, hq: 1 });
    expect(rows[1]).toEqual({ day: "Day 2", infantry: 4 }); // an older tally: ok and suppressed
  });

  it("give a stand type one colour in every chart, named by its label", () => {
    const axis = strengthSeries(STATS, AXIS).series;
    const allied = strengthSeries(STATS, ALLIED).series;
    const colourOf = (series: typeof axis, type: string) => series.find((entry) => entry.type === type)?.colour;

    expect(colourOf(axis, "infantry")).toBe(STAND_TYPE_COLOURS.infantry);
    expect(colourOf(allied, "infantry")).toBe(STAND_TYPE_COLOURS.infantry);
    expect(colourOf(axis, "hq")).toBe(colourOf(allied, "hq"));
    expect(new Set(Object.values(STAND_TYPE_COLOURS)).size).toBe(Object.keys(STAND_TYPE_COLOURS).length);
    expect(axis.map((entry) => entry.label)).toEqual(["Infantry", "HQ"]);
  });

  it("say hidden where the enemy's strength is not seen", () => {
    expect(strengthSeries(STATS, ALLIED).hidden).toBe(false);
    expect(strengthSeries({ ...STATS, days: [STATS.days[1]!] }, ALLIED).hidden).toBe(true);
  });
});

describe("the statistics table", () => {
  it("shows stands in action beside every status, and hidden values as hidden", () => {
    render(<StatisticsTable stats={STATS} />);

    const axisDay1 = screen.getAllByRole("row")[1]!;
    expect(axisDay1).toHaveTextContent(/^1Axis8105/);
    expect(axisDay1).toHaveTextContent("6 / 1 / 0");
    const alliedDay2 = screen.getAllByRole("row")[4]!;
    expect(alliedDay2).toHaveTextContent("hidden");
    expect(alliedDay2).not.toHaveTextContent(/\d+ \/ /);
  });
});

describe("the division pools table", () => {
  // Day 2 as an Axis player reads it: its divisions' pools after the night, the enemy's hidden (null).
  const day2 = STATS.days[1]!;
  const malta: Schemas["Statistics"] = {
    ...STATS,
    days: [
      STATS.days[0]!,
      {
        ...day2,
        sides: [
          { ...day2.sides[0]!, division_activation_points: { "Folgore": 3, "Brigade Ramcke": 0 } },
          day2.sides[1]!,
        ],
      },
    ],
  };

  it("lists each of the reader's divisions with the pool it carried into the day", () => {
    render(<DivisionPoolsTable stats={malta} />);

    const rows = screen.getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(["2AxisFolgore3", "2AxisBrigade Ramcke0"]);
    expect(screen.queryByText("Allied")).not.toBeInTheDocument();
  });

  it("is left out when there are no division pools to show", () => {
    const { container } = render(<DivisionPoolsTable stats={STATS} />);

    expect(container).toBeEmptyDOMElement();
  });
});

describe("the day's figures", () => {
  it("chart each side's figure per day, a hidden one as no value, named in the API's words", () => {
    const { rows, series } = figureSeries(STATS, ["stands_lost", "stands_replaced"]);

    expect(rows[1]).toEqual({
      day: "Day 2",
      "1-stands_lost": 3,
      "1-stands_replaced": 1,
      "2-stands_lost": null,
      "2-stands_replaced": null,
    });
    expect(series.map((entry) => entry.name)).toEqual([
      "Axis: stands lost",
      "Axis: stands replaced",
      "Allied: stands lost",
      "Allied: stands replaced",
    ]);
  });

  it("list every figure the API names, hidden ones and those the night has not taken yet in words", () => {
    render(<FiguresTable stats={STATS} />);

    expect(screen.getAllByRole("columnheader").map((cell) => cell.textContent)).toEqual([
      "Day",
      "Side",
      "Stands lost",
      "Stands replaced",
      "Activation points carried over",
      "Sectors held",
    ]);
    const enemyDayTwo = screen.getAllByRole("row")[4]?.querySelectorAll("td, th") ?? [];
    expect([...enemyDayTwo].map((cell) => cell.textContent)).toEqual([
      "2",
      "Allied",
      "hidden",
      "hidden",
      "after the night",
      "5",
    ]);
    const ownDayOne = screen.getAllByRole("row")[1]?.querySelectorAll("td, th") ?? [];
    expect([...ownDayOne].map((cell) => cell.textContent)).toEqual(["1", "Axis", "2", "1", "2", "5"]);
  });
});
