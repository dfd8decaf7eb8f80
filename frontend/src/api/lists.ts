/** Whole lists several pages read under one query key each (a campaign has tens of them). */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { queryKeys } from "./queryKeys";

export function useBattles(slug: string) {
  return useQuery({
    queryKey: queryKeys.battles(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/battles/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 500, ordering: "sector" } },
        }),
      ),
  });
}

/** The forces the reader sees: their own, and enemy ones once identified. */
export function useForces(slug: string) {
  return useQuery({
    queryKey: queryKeys.forces(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/forces/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 500 } },
        }),
      ),
  });
}

export function useDays(slug: string) {
  return useQuery({
    queryKey: queryKeys.days(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/days/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 500 } },
        }),
      ),
  });
}

/** The procedures of the rolls the reader may read, with their titles. */
export function useRollProcedures(slug: string) {
  return useQuery({
    queryKey: queryKeys.rollProcedures(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/rolls/procedures/", {
          params: { path: { campaign_slug: slug } },
        }),
      ),
  });
}

/** The order of battle as the caller may see it (the umpire: every side in full). */
export function useOrderOfBattle(slug: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.oob(slug),
    queryFn: () => unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/oob/", { params: { path: { campaign_slug: slug } } })),
    enabled,
  });
}

/** The campaign's sectors (the ground is public), by name. */
export function useSectors(slug: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.sectors(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/sectors/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 500 } },
        }),
      ),
    enabled,
  });
}
