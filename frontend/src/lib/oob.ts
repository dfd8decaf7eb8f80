import type { Schemas } from "../api/client";

/** Every battalion of the forces, in order-of-battle order. */
export function battalionsIn(forces: readonly Schemas["ForceTree"][]): Schemas["BattalionTree"][] {
  return forces.flatMap((force) => force.battlegroups.flatMap((group) => group.battalions));
}
