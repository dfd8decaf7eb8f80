/**
 * The one home of the app's chart colours: a stand type has the same colour in every chart
 * (a side's colour is the map's, from the API's vocabulary). Mostly Tableau 10's, chosen to be
 * told apart by most colour-blind readers; every chart also names its series in words (legend, tooltip and the table beside it).
 */
import type { Schemas } from "../api/client";

type StandType = Schemas["StandTypeEnum"];

export const STAND_TYPE_COLOURS: Record<StandType, string> = {
  infantry: "#4e79a7",
  smg: "#76b7b2",
  engineer: "#9c755f",
  recce: "#59a14f",
  armour: "#e15759",
  at_gun: "#b07aa1",
  field_gun: "#f28e2b",
  heavy_weapons: "#8c6d31",
  hq: "#1d232a",
  transport: "#79706e",
};

/** A stand type's colour; a type the app does not know yet gets a neutral grey. */
export function standTypeColour(type: string): string {
  return STAND_TYPE_COLOURS[type as StandType] ?? "#6b6b6b";
}
