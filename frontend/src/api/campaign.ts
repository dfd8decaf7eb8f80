/** The campaign summary every campaign page reads, kept current, and the actions it offers. */
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { PRELOADED_FRESH_MS } from "../session";
import { api, unwrap, type Schemas } from "./client";
import { queryKeys } from "./queryKeys";

/** How often a visible campaign page asks whether the campaign changed. A night run from another
 * tab or by the club's schedule changes it with no write of this page's; the answer is a 304 with
 * no body while nothing changed (the browser sends the summary's ETag back in If-None-Match). */
export const SUMMARY_POLL_MS = 20_000;

export type CampaignAction = Schemas["Campaign"]["actions"][number];

/** The campaign summary's query: read by the campaign layout, preloaded by the router. */
export function campaignSummaryQuery(slug: string) {
  return queryOptions({
    queryKey: queryKeys.campaign(slug),
    queryFn: () => unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/", { params: { path: { campaign_slug: slug } } })),
    staleTime: PRELOADED_FRESH_MS,
  });
}

/**
 * The campaign summary, asked again every {@link SUMMARY_POLL_MS} while the page is visible and
 * when the window gets the focus back. When its version moves (a write of anyone's, a night, an
 * arrival), every other answer of the campaign is read again: no page stays on a day that is over.
 */
export function useCampaignSummary(slug: string) {
  const queryClient = useQueryClient();
  const summary = useQuery({
    ...campaignSummaryQuery(slug),
    refetchInterval: SUMMARY_POLL_MS,
    refetchOnWindowFocus: "always",
  });
  const version = summary.data?.version;
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (version === undefined) return;
    const before = seen.current;
    seen.current = version;
    if (before === undefined || before === version) return;
    // The campaign's answers (their keys carry its slug), but the summary just read.
    const [summaryKey] = queryKeys.campaign(slug);
    void queryClient.invalidateQueries({
      predicate: (query) => query.queryKey[1] === slug && query.queryKey[0] !== summaryKey,
    });
  }, [version, slug, queryClient]);
  return summary;
}

/** The words of `action` when the campaign offers it to the reader now, else undefined. */
export function offered(campaign: Schemas["Campaign"], action: CampaignAction): string | undefined {
  const index = campaign.actions.indexOf(action);
  return index < 0 ? undefined : campaign.actions_labels[index];
}
