/**
 * Every key of the query cache, in one place: a page reads an answer and a write invalidates
 * or replaces it by the same key. A campaign's keys start with the resource and the campaign's
 * slug, so invalidating a short key also invalidates the longer keys under it.
 */
import type { operations } from "./schema";

export type RollQuery = operations["campaigns_rolls_list"]["parameters"]["query"];

export const queryKeys = {
  session: ["session"],
  campaigns: ["campaigns"],
  campaign: (slug: string) => ["campaign", slug],
  events: (slug: string) => ["events", slug],
  days: (slug: string) => ["days", slug],
  statistics: (slug: string) => ["statistics", slug],
  oob: (slug: string) => ["oob", slug],
  forceStatus: (slug: string, forceId: number) => ["force-status", slug, forceId],
  battles: (slug: string) => ["battles", slug],
  map: (slug: string) => ["map", slug],
  battle: (slug: string, battleId: number) => ["battle", slug, battleId],
  rolls: (slug: string, query: RollQuery) => ["rolls", slug, query],
  operations: (slug: string) => ["operations", slug],
  operation: (slug: string, operationId: number | undefined) => ["operation", slug, operationId],
  nightReports: (slug: string, operationId: number | undefined, finished: boolean) => [
    "night-reports",
    slug,
    operationId,
    finished,
  ],
  arrivalReports: (slug: string, day: number | null | undefined) => ["night-reports", slug, "arrivals", day],
} as const;
