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

// Rows dated MinValue ("no date") cannot be placed in any period and are dropped.
export function toQueryRows(rows: NativeQueryStats[]): Engine2QueryRow[] {
  return rows.flatMap((row) => {
    const date = dateOf(row.Date);
    if (date === undefined) return [];
    return [{ date, query: row.Query ?? '', clicks: row.Clicks ?? 0, impressions: row.Impressions ?? 0, ...positions(row) }];
  });
}

/** GetPageStats and GetQueryPageStats put the page URL in `Query` (there is no Page field). */
export function toPageRows(rows: NativeQueryStats[]): Engine2PageRow[] {
  return toQueryRows(rows).map(({ query, ...rest }) => ({ ...rest, page: query }));
}

export function toTrafficRows(rows: NativeTrafficStats[]): Engine2TrafficRow[] {
  return rows.flatMap((row) => {
    const date = dateOf(row.Date);
    if (date === undefined) return [];
    return [{ date, clicks: row.Clicks ?? 0, impressions: row.Impressions ?? 0 }];
  });
}
