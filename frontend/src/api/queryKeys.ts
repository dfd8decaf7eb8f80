/**
 * Every key of the query cache, in one place: a page reads an answer and a write invalidates
 * or replaces it by the same key. A campaign's keys start with the resource and the campaign's
 * slug, so invalidating a short key also invalidates the longer keys under it.
 */
import type { operations } from "./schema";

export type RollQuery = operations["campaigns_rolls_list"]["parameters"]["query"];
export type TimelineQuery = operations["campaigns_timeline_retrieve"]["parameters"]["query"];

export const queryKeys = {
  session: ["session"],
  vocabulary: ["vocabulary"],
  campaigns: ["campaigns"],
  campaign: (slug: string) => ["campaign", slug],
  events: (slug: string) => ["events", slug],
  days: (slug: string) => ["days", slug],
  statistics: (slug: string) => ["statistics", slug],
  // Under "oob": what a battle report or a correction invalidates refreshes the history too.
  battalionHistory: (slug: string, battalionId: string) => ["oob", slug, "history", battalionId],
  // Every filter's timeline, under one key: a journal written refreshes them all.
  timelines: (slug: string) => ["timeline", slug],
  timeline: (slug: string, query: TimelineQuery) => ["timeline", slug, query],
  oob: (slug: string) => ["oob", slug],
  forceStatus: (slug: string, forceId: string) => ["force-status", slug, forceId],
  battles: (slug: string) => ["battles", slug],
  map: (slug: string) => ["map", slug],
  battle: (slug: string, battleId: string) => ["battle", slug, battleId],
  battleDraft: (slug: string, battleId: string) => ["battle", slug, battleId, "draft"],
  battleDrafts: (slug: string, battleId: string) => ["battle", slug, battleId, "drafts"],
  battleSetupInputs: (slug: string, battleId: string) => ["battle", slug, battleId, "setup-inputs"],
  forces: (slug: string) => ["forces", slug],
  rolls: (slug: string, query: RollQuery) => ["rolls", slug, query],
  // Under "rolls": a write that invalidates the roll log refreshes its filter's choices too.
  rollProcedures: (slug: string) => ["rolls", slug, "procedures"],
  // Under "rolls" too: what refreshes the roll log (a night done) refreshes the revealed seeds.
  dice: (slug: string) => ["rolls", slug, "dice"],
  operations: (slug: string) => ["operations", slug],
  operation: (slug: string, operationId: string | undefined) => ["operation", slug, operationId],
  nightReports: (slug: string, operationId: string | undefined, finished: boolean) => [
    "night-reports",
    slug,
    operationId,
    finished,
  ],
  arrivalReports: (slug: string, day: number | null | undefined) => ["night-reports", slug, "arrivals", day],
  arrivalOperations: (slug: string, day: number | null | undefined) => ["operations", slug, "arrivals", day],
  day: (slug: string, day: number) => ["days", slug, day],
  sides: (slug: string) => ["sides", slug],
  reinforcements: (slug: string) => ["reinforcements", slug],
  rule: (key: string) => ["rule", key],
  invitation: (token: string) => ["invitation", token],
  // The inbox and the bell's count: one write (a mark read) refreshes both.
  notifications: ["notifications"],
  notificationList: (unreadOnly: boolean) => ["notifications", "list", unreadOnly],
  notificationCount: ["notifications", "unread-count"],
  notificationEmails: (slug: string) => ["notification-emails", slug],
  invitations: (slug: string) => ["invitations", slug],
  members: (slug: string) => ["members", slug],
  schedule: (slug: string) => ["schedule", slug],
  calendar: (slug: string) => ["calendar", slug],
  apiKeys: (slug: string) => ["api-keys", slug],
  webhooks: (slug: string) => ["webhooks", slug],
  deliveries: (slug: string, webhookId: string) => ["webhooks", slug, webhookId, "deliveries"],
  nightOrders: (slug: string) => ["night-orders", slug],
  sideOrders: (slug: string) => ["side-orders", slug],
  sideOrdersDeadline: (slug: string) => ["side-orders", slug, "deadline"],
  sectors: (slug: string) => ["sectors", slug],
  supply: (slug: string) => ["supply", slug],
  victory: (slug: string) => ["victory", slug],
  todo: (slug: string) => ["todo", slug],
} as const;
