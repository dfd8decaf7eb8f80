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
  fuel_state?: Schemas["ReportedFuelStateEnum"];
}

export interface BattleReport {
  battalions?: ReportedBattalion[];
  [key: string]: unknown;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
