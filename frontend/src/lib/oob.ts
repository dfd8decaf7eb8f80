import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";

/** The order of battle as the caller may see it (the umpire: every side in full). */
export function useOrderOfBattle(slug: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.oob(slug),
    queryFn: () => unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/oob/", { params: { path: { campaign_slug: slug } } })),
    enabled,
  });
}

/** Every battalion of the forces, in order-of-battle order. */
export function battalionsIn(forces: readonly Schemas["ForceTree"][]): Schemas["BattalionTree"][] {
  return forces.flatMap((force) => force.battlegroups.flatMap((group) => group.battalions));
}
