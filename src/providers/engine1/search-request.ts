// The request every searchAnalytics.query of ours sends: web results, with `dataState: all` unless the caller
// chose (`hourly_all` for hours), so the freshest, still-incomplete days are included and flagged.
import type { SearchAnalyticsRequest } from './client.ts';

export function toSearchAnalyticsRequest(input: SearchAnalyticsRequest): SearchAnalyticsRequest {
  return { type: 'web', dataState: 'all', ...input };
}
