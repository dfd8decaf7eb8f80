/** Rows the forms' tests share: a Malta campaign summary as its umpire reads it, battalions, stands. */
import type { Schemas } from "../api/client";

export const CAMPAIGN = {
  slug: "malta-1942",
  status: "active",
  current_day: 2,
  day_status: "day",
  role: "umpire",
  you_umpire: true,
  prints_for: [1, 2],
  papers: [],
  sides: [
    { id: 1, name: "Axis", is_axis: true, activation_points: 8, activation_cap: 20, barrage_rounds: 6 },
    { id: 2, name: "Allied", is_axis: false, activation_points: 13, activation_cap: null, barrage_rounds: 4 },
  ],
} as unknown as Schemas["Campaign"];

/** A public id for fixture rows the API names by one (battalions, stands, forces). */
export function uid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}

export function stand(id: number, label: string, type: Schemas["StandTypeEnum"], typeLabel: string): Schemas["Stand"] {
  return {
    id: uid(id),
    battalion: uid(1),
    battalion_code: "",
    label,
    stand_type: type,
    stand_type_label: typeLabel,
    status: "ok",
    status_label: "OK",
    equipment: null,
    equipment_name: null,
    attachment_kind_label: "",
    may_be_ordered: true,
  };
}

export function battalion(
  id: number,
  code: string,
  side: number,
  extra: Partial<Schemas["BattalionTree"]> = {},
): Schemas["BattalionTree"] {
  return { id: uid(id), code, name: "", side, in_reserve: false, stands: [], ...extra } as unknown as Schemas["BattalionTree"];
}

/** Malta's victory standing on day 1: the Axis holds one of the two sectors its condition names. */
export const VICTORY: Schemas["Victory"] = {
  status: "active",
  status_label: "Active",
  summary: "No victory condition is met as the map stands: the campaign goes on.",
  finished: false,
  winner: null,
  result: "",
  finished_day: null,
  conditions: [
    {
      side: 1,
      side_name: "Axis",
      result: "Malta falls: the Axis holds Valletta and the Grand Harbour",
      sectors: [
        { id: 10, name: "Valletta", owner: 2, held: false },
        { id: 14, name: "Grand Harbour", owner: 1, held: true },
      ],
      victory_points: null,
      points_held: 4,
      by_day: null,
      met: false,
      expired: false,
      standing: "Axis holds 1 of 2 sectors (Grand Harbour); not Valletta.",
    },
  ],
  end_day: 6,
  end_text: "If no condition is met by then, the night of day 6 ends the campaign: The garrison holds (Allied wins).",
  sides: [{ side: 1, name: "Axis", sectors_held: 3, victory_points: 4 }],
};
