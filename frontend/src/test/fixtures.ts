/** Rows the forms' tests share: a Malta campaign summary as its umpire reads it, battalions, stands. */
import type { Schemas } from "../api/client";

export const CAMPAIGN = {
  slug: "malta-1942",
  status: "active",
  current_day: 2,
  day_status: "day",
  role: "umpire",
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
