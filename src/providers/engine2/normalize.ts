// Bing stats → typed rows: Pacific calendar dates, the page-URL-in-`Query` quirk, `-1` positions.
import { MalformedAnswer } from '../upstream-errors.ts';
import { parseBingDate } from './dates.ts';
import type { NativeQueryStats, NativeTrafficStats } from './shapes.ts';

interface StatsBase {
  /** Pacific calendar date of the bucket (weekly for query/page stats, daily for traffic). */
  date: string;
  clicks: number;
  impressions: number;
}
export interface Engine2PositionStats extends StatsBase {
  /**
   * Bing's AvgImpressionPosition. Chosen over AvgClickPosition because it is what Search Console's `position`
   * means (average rank over impressions), so the two providers can be combined impression-weighted; the click
   * position only covers clicked results, skews towards the top and is -1 for rows without clicks.
   */
  position: number;
  /** AvgClickPosition; null when there were no clicks (Bing sends -1). */
  clickPosition: number | null;
}
export interface Engine2QueryRow extends Engine2PositionStats {
  query: string;
}
export interface Engine2PageRow extends Engine2PositionStats {
  page: string;
}
export type Engine2TrafficRow = StatsBase;

function dateOf(value: string): string | undefined {
  const date = parseBingDate(value);
  if (date === undefined && !/^\/Date\(-?\d+/.test(value)) throw new MalformedAnswer(`date "${value.slice(0, 40)}"`);
  return date;
}

function positions(row: NativeQueryStats): Omit<Engine2PositionStats, keyof StatsBase> {
  const impression = row.AvgImpressionPosition ?? 0;
  const click = row.AvgClickPosition ?? -1;
  return { position: impression > 0 ? impression : 0, clickPosition: click > 0 ? click : null };
}

// Rows dated MinValue ("no date") cannot be placed in any period and are dropped (undefined).
export function toQueryRow(row: NativeQueryStats): Engine2QueryRow | undefined {
  const date = dateOf(row.Date);
  if (date === undefined) return undefined;
  return { date, query: row.Query ?? '', clicks: row.Clicks ?? 0, impressions: row.Impressions ?? 0, ...positions(row) };
}

/** GetPageStats and GetQueryPageStats put the page URL in `Query` (there is no Page field). */
export function toPageRow(row: NativeQueryStats): Engine2PageRow | undefined {
  const queryRow = toQueryRow(row);
  if (queryRow === undefined) return undefined;
  const { query, ...rest } = queryRow;
  return { ...rest, page: query };
}

export function toTrafficRow(row: NativeTrafficStats): Engine2TrafficRow | undefined {
  const date = dateOf(row.Date);
  if (date === undefined) return undefined;
  return { date, clicks: row.Clicks ?? 0, impressions: row.Impressions ?? 0 };
}

/** Every row of an answer through one of the converters above, rows without a date left out. */
export function rowsOf<N, R>(rows: readonly N[], toRow: (row: N) => R | undefined): R[] {
  const out: R[] = [];
  for (const row of rows) {
    const converted = toRow(row);
    if (converted !== undefined) out.push(converted);
  }
  return out;
}
