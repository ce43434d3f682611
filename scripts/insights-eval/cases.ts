// What the evaluation plants and what it then asks. An event has exactly the shape `POST /__sandbox/scenarios`
// takes; a case is one planted event plus the insight checks that must find it.
import type { IsoDate } from '../../src/domain/calendar.ts';

/** The analytics dimensions a segment can be planted on, by the public names REST and the drivers use. */
export const SHIFT_DIMENSIONS = ['country', 'sessionDefaultChannelGroup', 'deviceCategory', 'landingPage'] as const;
export type ShiftDimension = (typeof SHIFT_DIMENSIONS)[number];
export const SPIKE_DIMENSIONS = ['sessionDefaultChannelGroup', 'country', 'deviceCategory'] as const satisfies readonly ShiftDimension[];

export interface SegmentShift {
  kind: 'segment_shift';
  property: string;
  dimension: ShiftDimension;
  value: string;
  from: IsoDate;
  factor: number;
}

export interface Spike {
  kind: 'spike';
  property: string;
  dimension: ShiftDimension;
  value: string;
  date: IsoDate;
  factor: number;
}

export interface RankingLoss {
  kind: 'ranking_loss';
  site: string;
  query: string;
  from: IsoDate;
  position: number;
}

export interface Cannibalisation {
  kind: 'cannibalisation';
  site: string;
  query: string;
  pages: [string, string];
  from: IsoDate;
}

export type PlantedEvent = SegmentShift | Spike | RankingLoss | Cannibalisation;

/** `custom_START_END`, the period parameter every endpoint takes. */
export function customPeriod(start: IsoDate, end: IsoDate): string {
  return `custom_${start}_${end}`;
}

export type Check =
  /** The change between `period` and the previous one must name the planted segment among its top-3 drivers. */
  | { insight: 'changes'; period: string; metric: string }
  /** Anomalies over `period` must include `date` (the spike's day, the shift's first day). */
  | { insight: 'anomalies'; period: string; metric: string; date: IsoDate }
  /** Search opportunities over `period` must report the ranking loss or the cannibalisation. */
  | { insight: 'search'; period: string };

export interface EvalCase {
  /** Stable within a run: `<project>-<n>`. */
  id: string;
  project: string;
  event: PlantedEvent;
  /** The planted effect on the analytics total, as a share of it (segment share × (factor − 1)); search: absent. */
  effect?: number;
  checks: Check[];
}
