/** The dashboard's own reads, as queries: its parts render them, and the router asks for them
 * as the app opens on the dashboard (App.tsx), with the page's code and the campaign. */
import { infiniteQueryOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { PRELOADED_FRESH_MS } from "../session";
import { api, unwrap } from "./client";
import { cursorOf } from "./cursor";
import { queryKeys } from "./queryKeys";

/** The campaign's victory conditions and standing (components/Victory.tsx shows them). */
export function victoryQuery(slug: string) {
  return queryOptions({
    queryKey: queryKeys.victory(slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/victory/", { params: { path: { campaign_slug: slug } } })),
    staleTime: PRELOADED_FRESH_MS,
  });
}

/** The campaign's events, newest first, a page at a time. */
export function newestEventsQuery(slug: string) {
  return infiniteQueryOptions({
    queryKey: queryKeys.events(slug),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/events/", {
          params: { path: { campaign_slug: slug }, query: { order: "newest", cursor: pageParam } },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => cursorOf(page.next),
    staleTime: PRELOADED_FRESH_MS,
  });
}

/** Asks for the dashboard's reads ahead of the page. */
export function prefetchDashboard(queryClient: QueryClient, slug: string) {
  void queryClient.prefetchQuery(victoryQuery(slug));
  void queryClient.prefetchInfiniteQuery(newestEventsQuery(slug));
}
