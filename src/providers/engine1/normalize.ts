// Search Console answers → typed rows keyed by the requested dimensions; data freshness from the metadata.
import { mapSliced } from '../../limits/event-loop-slice.ts';
import { MalformedAnswer, parseShape } from '../upstream-errors.ts';
import { searchRowSchema, type NativeSearchAnalytics, type NativeSitemaps } from './shapes.ts';

export interface SearchRow {
  /** One entry per requested dimension (`date`, `query`, `page`, `country`, `device`, `searchAppearance`, `hour`). */
  keys: Record<string, string>;
  clicks: number;
  impressions: number;
  /** Fraction 0–1. */
  ctr: number;
  /** Average position, 1-based. */
  position: number;
}

const DIMENSIONS: Record<string, string> = {
  date: 'date',
  query: 'query',
  page: 'page',
  country: 'country',
  device: 'device',
  searchappearance: 'searchAppearance',
  search_appearance: 'searchAppearance',
  hour: 'hour',
};

/** The provider accepts `QUERY`, `query`…; rows are keyed by the lowerCamel name. */
export function canonicalDimension(name: string): string {
  return DIMENSIONS[name.toLowerCase()] ?? name;
}

/**
 * Rows of one answer, each checked (a wrong shape is a MalformedAnswer, a 502) and keyed by the requested
 * dimensions. A page of 25,000 rows takes tens of milliseconds: read in slices, so other requests run meanwhile.
 */
export function normalizeSearchRows(native: NativeSearchAnalytics, dimensions: readonly string[]): Promise<SearchRow[]> {
  const names = dimensions.map(canonicalDimension);
  return mapSliced(native.rows ?? [], (raw) => {
    const row = parseShape(searchRowSchema, raw, 'searchAnalytics.query');
    const values = row.keys ?? [];
    if (values.length !== names.length) throw new MalformedAnswer('searchAnalytics.query: keys do not match dimensions');
    const keys: Record<string, string> = {};
    names.forEach((name, index) => {
      keys[name] = values[index] ?? '';
    });
    return {
      keys,
      clicks: row.clicks ?? 0,
      impressions: row.impressions ?? 0,
      ctr: row.ctr ?? 0,
      position: row.position ?? 0,
    };
  });
}

export interface SearchFreshness {
  /** First day with partial data (`dataState: all`, grouped by date). */
  firstIncompleteDate?: string;
  firstIncompleteHour?: string;
  /** Last complete day: the day before `firstIncompleteDate`. */
  dataThrough?: string;
}

/** The wire uses camelCase; vendor pages render snake_case: read both. */
export function readFreshness(native: NativeSearchAnalytics): SearchFreshness {
  const date = native.metadata?.firstIncompleteDate ?? native.metadata?.first_incomplete_date;
  const hour = native.metadata?.firstIncompleteHour ?? native.metadata?.first_incomplete_hour;
  return {
    ...(date !== undefined ? { firstIncompleteDate: date, dataThrough: previousDay(date) } : {}),
    ...(hour !== undefined ? { firstIncompleteHour: hour } : {}),
  };
}

function previousDay(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (match === null) throw new MalformedAnswer('searchAnalytics.query: firstIncompleteDate is not YYYY-MM-DD');
  const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) - 1);
  return new Date(utc).toISOString().slice(0, 10);
}

export interface Sitemap {
  path: string;
  type?: string;
  lastSubmitted?: string;
  lastDownloaded?: string;
  isPending: boolean;
  isSitemapsIndex: boolean;
  warnings: number;
  errors: number;
  contents: { type: string; submitted: number; indexed: number }[];
}

export function normalizeSitemaps(native: NativeSitemaps): Sitemap[] {
  return (native.sitemap ?? []).map((s) => ({
    path: s.path,
    type: s.type,
    lastSubmitted: s.lastSubmitted,
    lastDownloaded: s.lastDownloaded,
    isPending: s.isPending ?? false,
    isSitemapsIndex: s.isSitemapsIndex ?? false,
    warnings: Number(s.warnings ?? 0),
    errors: Number(s.errors ?? 0),
    contents: (s.contents ?? []).map((c) => ({
      type: c.type ?? 'web',
      submitted: Number(c.submitted ?? 0),
      indexed: Number(c.indexed ?? 0),
    })),
  }));
}
