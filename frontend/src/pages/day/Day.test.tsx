import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../../test/render";
import { ActivationForm } from "./Activation";
import { DawnForm } from "./Dawn";
import { ScheduleForm } from "./Reinforcements";

const CAMPAIGN = {
  slug: "malta",
  status: "active",
  current_day: 1,
  day_status: "done",
  segment_turns: [0, 1, 2, 3, 4],
  activation_points_help: "The side starts with the scenario's points. Points come in when a battle report adds them.",
  sides: [
    { id: 1, name: "Axis", activation_points: 12, activation_cap: null },
    { id: 2, name: "Allied", activation_points: 13, activation_cap: 20 },
  ],
} as unknown as Schemas["Campaign"];

function battalion(id: number, code: string, name: string, inReserve: boolean) {
  return { id, code, name, in_reserve: inReserve, activation_label: "Activated", stands: [] } as unknown as Schemas["BattalionTree"];
}

const FORCES = [
  {
    id: 1,
    side: 2,
    name: "Malta Garrison",
    battlegroups: [
      { id: 1, name: "Southern Brigade", battalions: [battalion(1, "L1", "1st Devons", false), battalion(2, "L2", "2nd Royal Irish", true)] },
    ],
  },
  {
    id: 2,
    side: 1,
    name: "7. Fliegerdivision",
    battlegroups: [
      { id: 2, name: "Kampfgruppe Nord", battalions: [battalion(3, "G1", "I./FJR 1", false), battalion(4, "G2", "II./FJR 1", false)] },
      { id: 3, name: "Kampfgruppe Süd", battalions: [battalion(5, "G3", "III./FJR 1", false)] },
    ],
  },
] as unknown as Schemas["ForceTree"][];

const PREVIEW: Schemas["DawnPreview"] = {
  day: 2,
  rule: "Great Battles of WWII charts, 2. Deployment Chart [10.0]",
  deployments: [
    {
      battalion: "L2",
      battalion_name: "2nd Royal Irish",
      range_inches: 5,
      friendly_intervening: false,
      side_order: null,
      cell: 'Dawn Phase, 6"',
      destroyed: 0,
      suppressed: 2,
      retreat_inches: 0,
      stands_destroyed: [],
      stands_suppressed: ["A Coy", "B Coy"],
      text: 'L2 deployed from reserve at 5" [Dawn Phase, 6"]: 2s',
    },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe("dawn with deployments", () => {
  it("previews the chart's casualties, then dawns with the same deployments once confirmed", async () => {
    const seen = stubFetch(jsonResponse(200, PREVIEW), jsonResponse(201, { number: 2, segments: [] }));
    renderWithProviders(<DawnForm campaign={CAMPAIGN} forces={FORCES} />);

    const dawn = screen.getByRole("button", { name: "Dawn day 2…" });
    expect(dawn).toBeDisabled();
    expect(screen.queryByRole("group", { name: "Deploy L1" })).not.toBeInTheDocument(); // not in reserve
    const l2 = screen.getByRole("group", { name: "Deploy L2" });
    await userEvent.click(within(l2).getByRole("checkbox", { name: /L2 2nd Royal Irish/ }));
    await userEvent.type(within(l2).getByLabelText("Range to the nearest enemy (inches)"), "5");
    await userEvent.click(screen.getByRole("button", { name: "Preview the dawn" }));

    const table = await screen.findByRole("list", { name: "Deployment casualties" });
    expect(table).toHaveTextContent("suppressed: A Coy, B Coy");
    expect(table).toHaveTextContent('Dawn Phase, 6"');
    expect(seen).toHaveLength(1);
    expect(await seen[0]?.json()).toEqual({
      deployments: [{ battalion: "L2", range_inches: 5, friendly_intervening: false }],
    });

    await userEvent.click(dawn);
    const dialog = screen.getByRole("alertdialog", { name: "Dawn day 2?" });
    expect(dialog).toHaveTextContent("L2 leave reserve with the casualties shown");
    expect(seen).toHaveLength(1); // nothing sent before the confirmation
    await userEvent.click(within(dialog).getByRole("button", { name: "Dawn day 2" }));

    await vi.waitFor(() => expect(seen).toHaveLength(2));
    const sent = seen[1];
    expect(sent && new URL(sent.url).pathname).toBe("/api/v1/campaigns/malta/days/dawn/");
    expect(sent?.headers.get("Idempotency-Key")).toBeTruthy();
    expect(await sent?.json()).toEqual({
      deployments: [{ battalion: "L2", range_inches: 5, friendly_intervening: false }],
    });
  });

  it("asks for a new preview when the form changes after one", async () => {
    stubFetch(jsonResponse(200, PREVIEW));
    renderWithProviders(<DawnForm campaign={CAMPAIGN} forces={FORCES} />);
    const l2 = screen.getByRole("group", { name: "Deploy L2" });
    await userEvent.click(within(l2).getByRole("checkbox", { name: /L2/ }));
    const range = within(l2).getByLabelText("Range to the nearest enemy (inches)");
    await userEvent.type(range, "5");
    await userEvent.click(screen.getByRole("button", { name: "Preview the dawn" }));
    await screen.findByRole("list", { name: "Deployment casualties" });

    await userEvent.type(range, "0");

    expect(screen.getByRole("button", { name: "Dawn day 2…" })).toBeDisabled();
    expect(screen.queryByRole("list", { name: "Deployment casualties" })).not.toBeInTheDocument();
  });

  it("shows the preview's refusal next to the deployment's field", async () => {
    stubFetch(
      jsonResponse(400, {
        error: {
          code: "invalid",
          message: "A valid number is required.",
          fields: { "deployments[0].range_inches": ["A valid number is required."] },
          rule: null,
        },
      }),
    );
    renderWithProviders(<DawnForm campaign={CAMPAIGN} forces={FORCES} />);
    const l2 = screen.getByRole("group", { name: "Deploy L2" });
    await userEvent.click(within(l2).getByRole("checkbox", { name: /L2/ }));
    await userEvent.click(screen.getByRole("button", { name: "Preview the dawn" }));

    const range = within(l2).getByLabelText("Range to the nearest enemy (inches)");
    await vi.waitFor(() => expect(range).toHaveAttribute("aria-invalid", "true"));
    expect(range).toHaveAccessibleDescription("A valid number is required.");
    expect(screen.getByRole("button", { name: "Dawn day 2…" })).toBeDisabled();
  });
});

// The chart's costs as the API prices each column at each turn of the segment (never the web app's copy).
const PRICED = {
  ...CAMPAIGN,
  day_status: "day",
  actions: ["open_next_segment", "spend_activation_points"],
  activation_costs: [0, 1, 2, 3, 4].flatMap((turn) =>
    (
      [
        ["1 Bn", 1],
        ["1 Bg", 2],
        ["2 Bgs", 6],
        ["3 Bgs", 10],
      ] as const
    ).map(([column, dawn]) => ({ turn, column, column_label: column, cost: turn === 0 ? dawn : dawn * 2 })),
  ),
} as Schemas["Campaign"];

describe("spending activation points", () => {
  it("shows the side's pool, each column's cost at the turn, and the side's battalions by battlegroup", async () => {
    const seen = stubFetch(
      jsonResponse(201, { id: 1, side: 1, day: 1, turn: 3, column: "1 Bg", cost: 4, battalions: ["G1", "G2"] }),
    );
    renderWithProviders(<ActivationForm campaign={PRICED} forces={FORCES} />);

    expect(screen.getByText(/Axis holds/)).toHaveTextContent("Axis holds 12 activation points.");
    // Where the points come from, in the API's words (issue #30: "0 of 20 and nothing explains why").
    expect(screen.getByText(/^The side starts with/)).toHaveTextContent(
      "The side starts with the scenario's points. Points come in when a battle report adds them.",
    );
    expect(screen.getByRole("radio", { name: "1 Bg costs 2 AP" })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText("Turn"), "Turn 3");
    await userEvent.click(screen.getByRole("radio", { name: "1 Bg costs 4 AP" }));
    expect(screen.queryByRole("checkbox", { name: /L1/ })).not.toBeInTheDocument(); // the other side's
    const north = screen.getByRole("group", { name: "Kampfgruppe Nord" });
    await userEvent.click(within(north).getByRole("checkbox", { name: /G1 I.\/FJR 1/ }));
    await userEvent.click(within(north).getByRole("checkbox", { name: /G2 II.\/FJR 1/ }));
    await userEvent.click(screen.getByRole("button", { name: "Spend 4 points on 1 Bg" }));

    expect(await screen.findByRole("status")).toHaveTextContent("Axis spent 4 points on 1 Bg: G1, G2.");
    const sent = seen[0];
    expect(sent && new URL(sent.url).pathname).toBe("/api/v1/campaigns/malta/sides/1/activation-spends/");
    expect(await sent?.json()).toEqual({ column: "1 Bg", turn: 3, battalion_codes: ["G1", "G2"] });
  });

  it("shows the API's refusal beside the columns and by the button", async () => {
    stubFetch(
      jsonResponse(400, {
        error: {
          code: "pool_overspent",
          message: "Allied's activation pool would go below zero.",
          fields: { column: ["Allied's activation pool would go below zero."] },
          rule: "Great Battles of WWII charts, 3. Activation Cost [9.0]",
        },
      }),
    );
    renderWithProviders(<ActivationForm campaign={PRICED} forces={FORCES} />);
    await userEvent.selectOptions(screen.getByLabelText("Side"), "Allied");
    expect(screen.getByText(/Allied holds/)).toHaveTextContent("Allied holds 13 activation points (at most 20).");
    await userEvent.click(screen.getByRole("checkbox", { name: /L1 1st Devons/ }));
    await userEvent.click(screen.getByRole("button", { name: /Spend/ }));

    expect(await screen.findByText("Rule: Great Battles of WWII charts, 3. Activation Cost [9.0]")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Column" })).toHaveAccessibleDescription(
      "Allied's activation pool would go below zero.",
    );
  });
});

describe("scheduling a reinforcement", () => {
  it("picks the entry zone from the campaign's sectors, as the API names them", async () => {
    const sector = (id: number, name: string) => ({ id, name }) as Schemas["Sector"];
    const seen = stubFetch(
      jsonResponse(200, { next: null, previous: null, results: [sector(1, "Hal Far"), sector(2, "Marsaxlokk Bay")] }),
      jsonResponse(201, { id: "0f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f" }),
    );
    const livorno = { id: "0f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f", name: "Livorno", side: 1, arrival_status: "in_reserve", arrival_status_label: "In reserve", actions: ["schedule"] } as unknown as Schemas["Reinforcement"];
    renderWithProviders(<ScheduleForm campaign={CAMPAIGN} forces={[livorno]} />);

    await userEvent.selectOptions(screen.getByLabelText("Force"), "0f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f");
    await screen.findByRole("option", { name: "Marsaxlokk Bay" });
    expect(screen.getByRole("combobox", { name: "Entry zone" })).toHaveDisplayValue("none yet");
    await userEvent.selectOptions(screen.getByLabelText("Entry zone"), "Marsaxlokk Bay");
    await userEvent.click(screen.getByRole("button", { name: "Schedule" }));

    const sent = seen[1];
    expect(sent && new URL(sent.url).pathname).toBe("/api/v1/campaigns/malta/reinforcements/");
    expect(await sent?.json()).toEqual({ force_id: "0f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f", day: 1, zone: "Marsaxlokk Bay" });
  });
});
