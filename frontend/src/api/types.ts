/** Shapes the schema leaves open (JSON fields), as the services write them. */
import type { Schemas } from "./client";

export type StandStatus = Schemas["StandStatusEnum"];

export interface DieThrow {
  dice: string;
  faces: number[];
  total: number;
}

export interface RollModifier {
  name: string;
  value: number;
  applies_to: "roll" | "threshold";
}

/** One roll record's `result`: rules_engine.results.RollResult.to_dict(). */
export interface RollResult {
  title: string;
  subject?: string | null;
  rule: { system: string; seed_file: string; section: string };
  rolls: DieThrow[];
  natural: number;
  modifiers: RollModifier[];
  score: number;
  threshold_base: number | null;
  threshold: number | null;
  comparison: string | null;
  cell: string | null;
  outcome_text: string;
  line: string;
}

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

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
