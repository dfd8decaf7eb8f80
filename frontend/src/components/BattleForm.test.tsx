import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { BattleForm } from "./BattleForm";
import { CAMPAIGN, battalion } from "../test/fixtures";

const BATTALIONS = [battalion(1, "G1", 1), battalion(2, "G2", 1, { in_reserve: true }), battalion(3, "W1", 2)];
const SECTORS = [
  { id: 11, name: "Gudja", kind_label: "Town", owner_label: "Allied" },
  { id: 12, name: "Hal Far", kind_label: "Airfield", owner_label: "" },
] as unknown as Schemas["Sector"][];
const EARLIER = {
  id: "5d8c2e1a-4b7f-4c3d-9e6a-0f1b2c3d4e5f",
  day: 1,
  sector: 11,
  sector_name: "Gudja",
  battle_type: "Local Attack",
  battle_type_label: "Local Attack",
  status: "reported",
  status_label: "Reported",
  attacker: 1,
  defender: 2,
  continues: null,
  feeds: [],
  battalions: ["G1", "W1"],
  setup: {},
  report: null,
} as unknown as Schemas["Battle"];

describe("the new battle form", () => {
  it("posts the sector, type, sides, battalions of each side and the battle it continues", async () => {
    const seen = stubFetch(jsonResponse(201, { ...EARLIER, id: "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d", day: 2, status: "planned" }));
    let created: Schemas["Battle"] | undefined;
    renderWithProviders(
      <BattleForm
        campaign={CAMPAIGN}
        sectors={SECTORS}
        battalions={BATTALIONS}
        battles={[EARLIER]}
        onCreated={(b) => (created = b)}
      />,
    );

    expect(screen.getByRole("option", { name: "Gudja (town, held by Allied)" })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText("Sector"), "12");
    const axis = screen.getByRole("group", { name: "Battalions of Axis" });
    await userEvent.click(within(axis).getByLabelText(/G1/));
    await userEvent.click(within(screen.getByRole("group", { name: "Battalions of Allied" })).getByLabelText(/W1/));
    await userEvent.selectOptions(screen.getByLabelText("Continues the battle of"), "5d8c2e1a-4b7f-4c3d-9e6a-0f1b2c3d4e5f");
    await userEvent.click(screen.getByRole("button", { name: "Create battle" }));

    await waitFor(() => expect(created?.id).toBe("9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d"));
    expect(within(axis).getByLabelText(/G2/).parentElement).toHaveTextContent("(in reserve)");
    const request = seen[0]!;
    expect(request.url).toMatch(/\/api\/v1\/campaigns\/malta-1942\/battles\/$/);
    expect(request.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await request.json()).toEqual({
      sector: 12,
      battle_type: "Local Attack",
      attacker_id: 1,
      defender_id: 2,
      battalion_codes: ["G1", "W1"],
      continues_id: "5d8c2e1a-4b7f-4c3d-9e6a-0f1b2c3d4e5f",
      feeds_ids: [],
    });
  });

  it("names a new table in a campaign without a map", async () => {
    const seen = stubFetch(jsonResponse(201, { ...EARLIER, id: 10 }));
    renderWithProviders(<BattleForm campaign={CAMPAIGN} sectors={[]} battalions={BATTALIONS} battles={[]} />);

    await userEvent.selectOptions(screen.getByLabelText("Sector"), "another table (name it)");
    await userEvent.type(screen.getByLabelText("Table name"), "Table 3");
    await userEvent.click(screen.getByRole("button", { name: "Create battle" }));

    await waitFor(() => expect(seen).toHaveLength(1));
    expect(await seen[0]!.json()).toMatchObject({ sector_name: "Table 3" });
  });

  it("shows the API's refusal next to the field it names and next to Submit", async () => {
    stubFetch(
      jsonResponse(400, {
        error: {
          code: "invalid",
          message: "Choose a sector.",
          fields: { sector: ["Choose a sector."], "battalion_codes[0]": ["Battalion Z9 is not in this campaign."] },
          rule: null,
        },
      }),
    );
    renderWithProviders(<BattleForm campaign={CAMPAIGN} sectors={SECTORS} battalions={BATTALIONS} battles={[]} />);

    await userEvent.click(screen.getByRole("button", { name: "Create battle" }));

    const sector = screen.getByLabelText("Sector");
    await waitFor(() => expect(sector).toHaveAttribute("aria-invalid", "true"));
    expect(sector).toHaveAccessibleDescription("Choose a sector.");
    expect(screen.getByText("Battalion Z9 is not in this campaign.")).toBeInTheDocument();
    const refusal = screen.getByRole("button", { name: "Create battle" }).previousElementSibling!;
    expect(refusal).toHaveTextContent("Choose a sector.");
  });
});
