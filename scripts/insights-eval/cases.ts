// What the evaluation plants and what it then asks. An event has exactly the shape `POST /__sandbox/scenarios`
// takes; a case is one or two planted events plus the insight checks that must find them (a quiet case plants
// nothing and counts what the answers still call significant).
import type { IsoDate } from '../../src/domain/calendar.ts';

/** The analytics dimensions a segment can be planted on, by the public names REST and the drivers use. */
export const SHIFT_DIMENSIONS = ['country', 'sessionDefaultChannelGroup', 'deviceCategory', 'landingPage'] as const;
export type ShiftDimension = (typeof SHIFT_DIMENSIONS)[number];
export const SPIKE_DIMENSIONS = ['sessionDefaultChannelGroup', 'country', 'deviceCategory'] as const satisfies readonly ShiftDimension[];
/** Rate metrics the evaluation plants and asks about. */
export const RATE_METRICS = ['sessionKeyEventRate', 'engagementRate'] as const;
export type RateMetric = (typeof RATE_METRICS)[number];

interface OnSegment {
  property: string;
  dimension: ShiftDimension;
  value: string;
}

export type PlantedEvent =
  | (OnSegment & { kind: 'segment_shift'; from: IsoDate; factor: number })
  | (OnSegment & { kind: 'spike'; date: IsoDate; factor: number })
  | (OnSegment & { kind: 'trend'; from: IsoDate; to: IsoDate; factor: number })
  | (OnSegment & { kind: 'rate_shift'; metric: RateMetric; from: IsoDate; factor: number })
  | { kind: 'ranking_loss'; site: string; query: string; from: IsoDate; position: number; engine?: 'engine1' | 'engine2' | 'all' }
  | { kind: 'cannibalisation'; site: string; query: string; pages: [string, string]; from: IsoDate }
  | { kind: 'page_drop'; site: string; page: string; from: IsoDate; factor: number };

/** A share to three decimals (effects read well and reproduce exactly). */
export function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** `custom_START_END`, the period parameter every endpoint takes. */
export function customPeriod(start: IsoDate, end: IsoDate): string {
  return `custom_${start}_${end}`;
}

/** A planted cause as the change explanation names it: a driver's dimension and value. */
export interface Truth {
  dimension: string;
  value: string;
}

/** What a search opportunity must name to report the planted loss. */
export interface SearchTarget {
  kinds: string[];
  query?: string;
  page?: string;
  pages?: string[];
}

export type Check =
  /** The change between `period` and the previous one must rank the planted causes first (drivers). */
  | { insight: 'changes'; period: string; metric: string; truths: Truth[]; sp?: string }
  /** Nothing planted: every driver the answer calls significant is a false one. */
  | { insight: 'quiet'; period: string; metric: string }
  /** Anomalies over `period` must include `date` (the spike's day, the shift's first day). */
  | { insight: 'anomalies'; period: string; metric: string; date: IsoDate }
  /** Search opportunities over `period` must report the planted loss, ideally first of all. */
  | { insight: 'search'; period: string; target: SearchTarget };

/** The family a case belongs to in the table (one row each). */
export type CaseFamily =
  | 'segment shift' | 'rate shift' | 'trend' | 'two events' | 'spike' | 'query loss'
  | 'engine2-only loss' | 'page drop (echo)' | 'cannibalisation' | 'quiet window';

export interface EvalCase {
  /** Stable within a run: `<seed>-<project>-<n>`. */
  id: string;
  project: string;
  family: CaseFamily;
  events: PlantedEvent[];
  /** The planted effect on the analytics total, as a share of it (segment share × (factor − 1)); search: absent. */
  effect?: number;
  checks: Check[];
}
