// The request every searchAnalytics.query of ours sends: web results, with `dataState: all` unless the caller
// chose (`hourly_all` for hours), so the freshest, still-incomplete days are included and flagged.
import type { ReportRequest } from '../../domain/comparison-request.ts';
import { toSearchConsoleFilterGroups } from '../../domain/filter-search-console.ts';
import type { SearchAnalyticsRequest } from './client.ts';

export function toSearchAnalyticsRequest(input: SearchAnalyticsRequest): SearchAnalyticsRequest {
  return { type: 'web', dataState: 'all', ...input };
}

/**
 * A neutral report request as engine1's query body: one range, its dimensions, the user's filter (what engine1
 * cannot express is a 400 naming it) and `limit` as the row cap. engine1 returns every metric and orders by clicks;
 * it takes neither two ranges nor value lists, and a request carrying one is a programming error, never ignored.
 */
export function toEngine1Request(request: ReportRequest): SearchAnalyticsRequest {
  if (request.comparison !== undefined || (request.only?.length ?? 0) > 0 || request.offset) {
    throw new Error('engine1 requests take one range, no value list and no offset');
  }
  const groups = request.filter ? toSearchConsoleFilterGroups(request.filter) : undefined;
  return {
    startDate: request.range.start,
    endDate: request.range.end,
    dimensions: [...request.dimensions],
    ...(groups ? { dimensionFilterGroups: groups.map((g) => ({ groupType: g.groupType, filters: g.filters.map((f) => ({ ...f })) })) } : {}),
    ...(request.limit !== undefined ? { rowLimit: request.limit } : {}),
  };
}
