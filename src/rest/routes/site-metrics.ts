// REST routes for site metrics from analytics.
import { defineRestRoute } from '../rest-route.ts';

type Row = Record<string, unknown>;

const rowsOf = (key: string) => (body: unknown) => ((body as Record<string, unknown>)[key] ?? []) as Row[];

/** Timeseries points carry their figure as `value`; in CSV the column is named after the metric, as in breakdowns. */
function pointsByMetric(body: unknown): Row[] {
  const metric = String((body as { metric?: unknown }).metric ?? 'value');
  return rowsOf('points')(body).map(({ value, ...rest }) => ({ ...rest, [metric]: value }));
}

export const siteMetricRoutes = [
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/summary',
    operation: 'SiteSummary',
    field: 'siteSummary',
    query: ['period', 'compare', 'force'],
    summary: 'Headline site metrics',
    description:
      'activeUsers, newUsers, sessions, screenPageViews, engagedSessions, engagementRate, bounceRate, averageSessionDuration, screenPageViewsPerSession, eventCount and keyEvents for the period; compared with the previous period by default (compare=none for plain numbers). One upstream round trip.',
    tags: ['site metrics'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/timeseries',
    operation: 'SiteTimeseries',
    field: 'siteTimeseries',
    query: ['metric', 'period', 'interval', 'compare', 'force'],
    csvRows: pointsByMetric,
    summary: 'One metric over time',
    description:
      'Every bucket of the period is present (0 when empty); `total` is the provider total of the period (users and rates do not add up across buckets). interval=hour gives `time` (ISO-8601 with offset) instead of `date`. Week buckets start on Monday and are keyed by their first day inside the period.',
    tags: ['site metrics'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/dimension',
    operation: 'SiteBreakdown',
    field: 'siteBreakdown',
    query: ['dimension', 'period', 'metrics', 'limit', 'offset', 'order', 'filter', 'compare', 'force'],
    csvRows: rowsOf('rows'),
    summary: 'Metrics broken down by a dimension',
    description: 'Rows ordered and paged upstream; `totalRows` counts every row of the breakdown. With compare, the previous range is fetched for the values on this page.',
    tags: ['site metrics'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/realtime',
    operation: 'Realtime',
    field: 'realtime',
    query: [],
    summary: 'Activity of the last 30 minutes',
    description: 'Active users, per minute, and the top pages, countries, devices and events. Cached at most 30 s.',
    tags: ['site metrics'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/metadata',
    operation: 'Metadata',
    field: 'metadata',
    query: [],
    summary: 'Metrics and dimensions this project accepts',
    description: 'Standard and custom analytics fields with types, and the search dimensions each engine serves.',
    tags: ['site metrics'],
  }),
];
