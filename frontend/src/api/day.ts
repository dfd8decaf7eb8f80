/** The day page's reads and writes: the dawn, the day under way, its rolls and arrivals, the
 * reinforcements and activation spends. A write refreshes every answer: it changes the summary,
 * the timeline, the rolls and the order of battle. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, idempotencyKey, unwrap, type Schemas } from "./client";
import { queryKeys } from "./queryKeys";

type Deployment = Schemas["DeploymentInputRequest"];
// An arrival roll runs on a worker for a few seconds: its progress is read this often meanwhile.
const ARRIVALS_POLL_MS = 1000;

function useRefreshAll() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries();
}

function idempotent() {
  return { "Idempotency-Key": idempotencyKey() };
}

/** What dawning with these deployments would do: read, never rolled. */
export function useDawnPreview(slug: string) {
  return useMutation({
    mutationFn: (sent: { deployments: Deployment[] }) =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/days/dawn-preview/", {
          params: { path: { campaign_slug: slug } },
          body: sent,
        }),
      ),
  });
}

/** The dawn, under one idempotency key for the form's life (a retry never dawns twice). */
export function useDawn(slug: string, key: string, onDawned: () => void) {
  const refreshAll = useRefreshAll();
  return useMutation({
    mutationFn: (body: { deployments: Deployment[] }) =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/days/dawn/", {
          params: { path: { campaign_slug: slug }, header: { "Idempotency-Key": key } },
          body,
        }),
      ),
    onSuccess: () => {
      onDawned();
      refreshAll();
    },
  });
}

/** Open the next segment of the day under way (the campaign offers it as `open_next_segment`). */
export function useAdvanceSegment(campaign: Schemas["Campaign"], onAdvanced?: () => void) {
  const refreshAll = useRefreshAll();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/days/{number}/advance-segment/", {
          params: { path: { campaign_slug: campaign.slug, number: String(campaign.current_day ?? 0) }, header: idempotent() },
        }),
      ),
    onSuccess: onAdvanced ?? refreshAll,
  });
}

export function useDay(slug: string, number: number) {
  return useQuery({
    queryKey: queryKeys.day(slug, number),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/days/{number}/", {
          params: { path: { campaign_slug: slug, number: String(number) } },
        }),
      ),
  });
}

/** The table's rolls of a day (weather, initiative, wind, turns); units' rolls are in the roll log. */
export function useDayRolls(slug: string, day: number) {
  const query = { day, table: true, page_size: 100 };
  return useQuery({
    queryKey: queryKeys.rolls(slug, query),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/rolls/", { params: { path: { campaign_slug: slug }, query } })),
  });
}

/** The day's latest arrival rolls, read again while the worker runs them. */
export function useLatestArrivals(slug: string, day: number) {
  return useQuery({
    queryKey: queryKeys.arrivalOperations(slug, day),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/operations/", {
          params: { path: { campaign_slug: slug }, query: { kind: "arrivals", day, ordering: "-id", page_size: 1 } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.results.some((operation) => operation.running) ? ARRIVALS_POLL_MS : false,
  });
}

/** The arrival reports of a day, each side's as the reader may see them. */
export function useArrivalReports(slug: string, day: number | null | undefined, enabled = true) {
  return useQuery({
    queryKey: queryKeys.arrivalReports(slug, day),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/night-reports/", {
          params: { path: { campaign_slug: slug }, query: { kind: "arrivals", day: day ?? undefined, page_size: 100 } },
        }),
      ),
    enabled: enabled && Boolean(day),
  });
}

export function useReinforcements(slug: string) {
  return useQuery({
    queryKey: queryKeys.reinforcements(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/reinforcements/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 200, ordering: "arrival_day" } },
        }),
      ),
  });
}

export function usePostpone(slug: string, forceId: string) {
  const refreshAll = useRefreshAll();
  return useMutation({
    mutationFn: (day: number) =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/reinforcements/{id}/postpone/", {
          params: { path: { campaign_slug: slug, id: forceId }, header: idempotent() },
          body: { day },
        }),
      ),
    onSuccess: refreshAll,
  });
}

export function useSchedule(slug: string) {
  const refreshAll = useRefreshAll();
  return useMutation({
    mutationFn: (body: { force_id: string; day: number; zone: string }) =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/reinforcements/", {
          params: { path: { campaign_slug: slug }, header: idempotent() },
          body,
        }),
      ),
    onSuccess: refreshAll,
  });
}

export function useActivationSpend(slug: string, sideId: number, onSpent: () => void) {
  const refreshAll = useRefreshAll();
  return useMutation({
    mutationFn: (body: { column: Schemas["ColumnEnum"]; turn: number; battalion_codes: string[] }) =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/sides/{side_pk}/activation-spends/", {
          params: { path: { campaign_slug: slug, side_pk: sideId }, header: idempotent() },
          body,
        }),
      ),
    onSuccess: () => {
      onSpent();
      refreshAll();
    },
  });
}
