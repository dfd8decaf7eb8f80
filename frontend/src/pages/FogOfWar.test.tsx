import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { FogPicker, fogOf } from "./FogOfWar";

const AXIS = {
  id: 1,
  name: "Axis",
  fog_of_war: { identified_units: ["G1"], strengths: false, battle_results: true },
} as unknown as Schemas["Side"];

const FORCES = [
  {
    id: 2,
    side: 1,
    name: "7. Fliegerdivision",
    battlegroups: [
      {
        id: 2,
        name: "Kampfgruppe Nord",
        battalions: [
          { id: 3, code: "G1", name: "I./FJR 1", in_reserve: false },
          { id: 4, code: "G2", name: "II./FJR 1", in_reserve: true },
        ],
      },
    ],
  },
  { id: 1, side: 2, name: "Malta Garrison", battlegroups: [{ id: 1, name: "South", battalions: [{ id: 1, code: "L1", name: "1st Devons" }] }] },
] as unknown as Schemas["ForceTree"][];

afterEach(() => vi.unstubAllGlobals());

describe("the fog-of-war picker", () => {
  it("reads an unset fog as nothing revealed", () => {
    expect(fogOf({ ...AXIS, fog_of_war: null } as unknown as Schemas["Side"])).toEqual({
      identified_units: [],
      strengths: false,
      battle_results: false,
    });
  });

  it("lists the side's battalions by name with checkboxes and sends the whole setting", async () => {
    const seen = stubFetch(jsonResponse(200, { ...AXIS, fog_of_war: { identified_units: ["G1", "G2"], strengths: true, battle_results: true } }));
    renderWithProviders(<FogPicker slug="malta" side={AXIS} enemies="Allied" forces={FORCES} />);

    const form = screen.getByRole("form", { name: "Fog of war of Axis" });
    expect(within(form).getByRole("heading")).toHaveTextContent("What Allied has identified of Axis");
    expect(within(form).queryByText(/1st Devons/)).not.toBeInTheDocument(); // the enemy's own battalions
    expect(within(form).getByRole("checkbox", { name: "G1 I./FJR 1" })).toBeChecked();
    await userEvent.click(within(form).getByRole("checkbox", { name: /G2 II.\/FJR 1/ }));
    await userEvent.click(within(form).getByRole("checkbox", { name: "Allied sees the identified battalions' stands" }));
    await userEvent.click(within(form).getByRole("button", { name: "Save what Allied sees" }));

    expect(await screen.findByRole("status")).toHaveTextContent("Saved.");
    const [request] = seen;
    expect(request?.method).toBe("PUT");
    expect(request && new URL(request.url).pathname).toBe("/api/v1/campaigns/malta/sides/1/fog-of-war/");
    expect(await request?.json()).toEqual({ identified_units: ["G1", "G2"], strengths: true, battle_results: true });
  });

  it("shows the refused battalion's message by the picker", async () => {
    stubFetch(
      jsonResponse(400, {
        error: {
          code: "invalid",
          message: "Battalion G9 is not a battalion of Axis.",
          fields: { "identified_units[0]": ["Battalion G9 is not a battalion of Axis."] },
          rule: null,
        },
      }),
    );
    renderWithProviders(<FogPicker slug="malta" side={AXIS} enemies="Allied" forces={FORCES} />);
    await userEvent.click(screen.getByRole("button", { name: "Save what Allied sees" }));

    const picker = screen.getByRole("group", { name: "Identified battalions of Axis" });
    await vi.waitFor(() =>
      expect(picker).toHaveAccessibleDescription("Battalion G9 is not a battalion of Axis."),
    );
  });
});
