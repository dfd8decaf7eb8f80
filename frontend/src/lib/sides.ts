import type { Schemas } from "../api/client";

/** A side's name as the campaign calls it; "—" for none. */
export function sideName(campaign: Schemas["Campaign"], sideId: number | null | undefined): string {
  return campaign.sides.find((side) => side.id === sideId)?.name ?? (sideId == null ? "—" : `side ${sideId}`);
}
