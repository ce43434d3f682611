// REST routes for search data from engine1 and engine2, alone or combined.
import { defineRestRoute } from '../rest-route.ts';

type Row = Record<string, unknown>;

/** CSV rows: the combined figures, then each engine's share, which the CSV writer turns into `engine1.clicks`, …. */
function liftByProvider(row: Row): Row {
  const { byProvider, ...rest } = row;
  return { ...rest, ...((byProvider ?? {}) as Row) };
}

const listOf = (body: unknown, field: 'points' | 'rows'): Row[] => ((body as Record<string, Row[] | undefined>)[field] ?? []).map(liftByProvider);

export const searchRoutes = [
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/search/summary',
    operation: 'SearchSummary',
    field: 'searchSummary',
    query: ['period', 'sp', 'compare', 'force'],
    summary: 'Search totals per engine and combined',
    description:
      'clicks, impressions, ctr and position for the period from engine1 and engine2 (sp=all combines them: sums, CTR recomputed, impression-weighted position), compared with the previous period by default. engine2 site totals come from its daily traffic, which has no position. One engine1 call and one engine2 call at most.',
    tags: ['search'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/search/timeseries',
    operation: 'SearchTimeseries',
    field: 'searchTimeseries',
    query: ['period', 'sp', 'interval', 'force'],
    csvRows: (body) => listOf(body, 'points'),
    summary: 'Search figures over time',
    description:
      'One point per hour, day, week or month of the period (missing buckets are 0). interval=hour uses engine1 hourly data (last 10 days); engine2 has none and is left out with a warning.',
    tags: ['search'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/search/dimension',
    operation: 'SearchBreakdown',
    field: 'searchBreakdown',
    query: ['dimension', 'period', 'sp', 'limit', 'offset', 'order', 'filter', 'force'],
    csvRows: (body) => listOf(body, 'rows'),
    summary: 'Search data by query, page, country, device or date',
    description:
      'Rows matched across engines on the normalised key (queries lower-cased and trimmed, page URLs without tracking parameters, countries ISO alpha-3, devices desktop|mobile|tablet). engine2 serves query and page only (weekly buckets); other dimensions come from engine1 alone with a warning. Filters go to engine1 upstream (unsupported ones are a 400 naming engine1) and are applied locally to engine2 rows.',
    tags: ['search'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/landing-pages',
    operation: 'LandingPages',
    field: 'landingPages',
    query: ['period', 'sp', 'limit', 'offset', 'order', 'filter', 'force'],
    csvRows: (body) => ((body as { rows?: Row[] }).rows ?? []),
    summary: 'Landing pages with their search traffic',
    description:
      'Analytics landing pages (sessions, engagementRate, keyEvents) joined with search pages (clicks, impressions, ctr, position; sp selects the engines) on the normalised URL: the project origin https://<domain> plus the landing path. Pages known to only one side keep zeros (position null). order takes any of the seven metrics; filter takes page (e.g. page=@/blog/), applied to the joined rows.',
    tags: ['search'],
  }),
];
