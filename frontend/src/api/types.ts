/** Shapes the schema leaves open (JSON fields), as the services write them. */
import type { Schemas } from "./client";

export type StandStatus = Schemas["StandStatusEnum"];

export interface ReportedObjective {
  name: string;
  activation_points?: number;
}

export interface ReportedBattalion {
  code: string;
  destroyed?: string[];
  suppressed?: string[];
  activation_points_spent?: number;
  barrage_rounds_spent?: number;
  objectives?: ReportedObjective[];
  supply_situation?: string;
}

export interface BattleReport {
  battalions?: ReportedBattalion[];
  [key: string]: unknown;
}

export interface NightReportBattalion {
  code: string;
  text: string;
  lines: string[];
}

/** A side's night report body (campaign.services.night.night_phase_finish): the side's own figures. */
export interface NightReportBody {
  day?: number;
  side?: string;
  replacements_rolled?: number;
  replacements_returned?: number;
  extra_stands_lost?: number;
  battalions?: NightReportBattalion[];
  moved_to_reserve?: string[];
  activation_points_carried?: number;
  activation_points_lost?: number;
  barrage_rounds_replenished?: number;
  suppressions_flipped?: number;
  battalions_set_inactive?: number;
  fups_moved?: number;
  ammo_markers_rolled?: number;
  forces_to_reroll_availability?: number;
  forces_removed?: string[];
  [key: string]: unknown;
}

/** One force's arrival rolls in a segment (campaign.services.arrivals.arrivals_step). */
export interface ArrivalReportEntry {
  force: string;
  arrival_status: string;
  arrival_status_label?: string;
  zone?: string;
  turns_left?: number | null;
  enters_on_turn?: number | null;
  lines: string[];
}

/** A side's arrival report body (campaign.services.arrivals.arrivals_finish). */
export interface ArrivalReportBody {
  day?: number;
  segment?: string;
  side?: string;
  arrivals?: ArrivalReportEntry[];
  [key: string]: unknown;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
