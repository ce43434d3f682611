// Combining search data of engine1 and engine2: sums, CTR recomputed, impression-weighted position.

import type { SearchDimension } from './catalogue.ts';
import { normaliseSearchKey } from './search-normalise.ts';
import { SEARCH_SOURCES, type SearchSource } from './sources.ts';

/** What one provider reports for one key (its own `ctr` is not needed: it is recomputed). */
export interface SearchMetricsInput {
  readonly clicks: number;
  readonly impressions: number;
  /** Average position, 1-based. */
  readonly position: number;
}

export interface SearchMetrics {
  readonly clicks: number;
  readonly impressions: number;
  /** clicks / impressions, 0 when there are no impressions. */
  readonly ctr: number;
  readonly position: number;
}

export interface SearchRowInput extends SearchMetricsInput {
  /** The dimension value as the provider wrote it. */
  readonly key: string;
}

export interface CombinedSearchRow extends SearchMetrics {
  /** The normalised dimension value rows were matched on. */
  readonly key: string;
  readonly byProvider: Readonly<Partial<Record<SearchSource, SearchMetrics>>>;
}

export type RowsByProvider = Readonly<Partial<Record<SearchSource, readonly SearchRowInput[]>>>;

export const EMPTY_SEARCH_METRICS: SearchMetrics = { clicks: 0, impressions: 0, ctr: 0, position: 0 };

/**
 * Merges parts into one: clicks and impressions add up, ctr = clicks / impressions (never an average
 * of CTRs), position = the impression-weighted mean. When no part has impressions the position is the
 * plain mean of the parts' positions (0 for no parts), so it always stays between their min and max.
 */
export function mergeSearchMetrics(parts: readonly SearchMetricsInput[]): SearchMetrics {
  if (parts.length === 0) return EMPTY_SEARCH_METRICS;
  let clicks = 0;
  let impressions = 0;
  let weighted = 0;
  let plain = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const p of parts) {
    clicks += p.clicks;
    impressions += p.impressions;
    weighted += p.position * p.impressions;
    plain += p.position;
    min = Math.min(min, p.position);
    max = Math.max(max, p.position);
  }
  const mean = impressions > 0 ? weighted / impressions : plain / parts.length;
  // Clamp away floating-point drift so the invariant min <= position <= max holds exactly.
  const position = Math.min(max, Math.max(min, mean));
  return { clicks, impressions, ctr: impressions > 0 ? clicks / impressions : 0, position };
}

function sourcesIn<T>(byProvider: Readonly<Partial<Record<SearchSource, T>>>): SearchSource[] {
  return SEARCH_SOURCES.filter((s) => byProvider[s] !== undefined);
}

/**
 * Matches rows of the providers on the normalised value of `dimension` and merges them. A provider's
 * own rows that normalise to the same key are merged first (its `byProvider` entry). Result order is
 * deterministic: clicks desc, impressions desc, key asc; callers re-sort for `order`.
 */
export function combineSearchRows(rowsByProvider: RowsByProvider, dimension: SearchDimension): CombinedSearchRow[] {
  const groups = new Map<string, Map<SearchSource, SearchMetricsInput[]>>();
  for (const source of sourcesIn(rowsByProvider)) {
    for (const row of rowsByProvider[source] ?? []) {
      const key = normaliseSearchKey(dimension, row.key);
      let perSource = groups.get(key);
      if (perSource === undefined) groups.set(key, (perSource = new Map()));
      const list = perSource.get(source);
      if (list === undefined) perSource.set(source, [row]);
      else list.push(row);
    }
  }
  const rows: CombinedSearchRow[] = [];
  for (const [key, perSource] of groups) {
    const byProvider: Partial<Record<SearchSource, SearchMetrics>> = {};
    for (const source of SEARCH_SOURCES) {
      const parts = perSource.get(source);
      if (parts !== undefined) byProvider[source] = mergeSearchMetrics(parts);
    }
    rows.push({ key, ...mergeSearchMetrics(Object.values(byProvider)), byProvider });
  }
  return rows.sort(
    (a, b) => b.clicks - a.clicks || b.impressions - a.impressions || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}
