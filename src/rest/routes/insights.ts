// REST routes for insights: what changed and why, anomalies, search opportunities.
import { defineRestRoute } from '../rest-route.ts';

type Row = Record<string, unknown>;

/** CSV: one row per driver / opportunity; an anomaly's segment and drivers are flattened into columns. */
const listOf = (key: string) => (body: unknown) => ((body as Record<string, Row[] | undefined>)[key] ?? []);

function anomalyRows(body: unknown): Row[] {
  return listOf('anomalies')(body).map(({ drivers, segment, ...rest }) => ({
    ...rest,
    ...(segment ? { segment: `${(segment as Row).dimension}=${(segment as Row).value}` } : {}),
    drivers: ((drivers ?? []) as Row[]).map((d) => `${d.dimension}=${d.value} (${d.contribution})`).join('; '),
  }));
}

function driverRows(body: unknown): Row[] {
  // reason and echoOf are always columns, last (empty when a driver has none), so the header does not depend on the data.
  return listOf('drivers')(body).map(({ echoOf, reason, ...rest }) => ({ ...rest, reason: reason ?? null, echoOf: echoOf ? `${(echoOf as Row).dimension}=${(echoOf as Row).value}` : null }));
}

function opportunityRows(body: unknown): Row[] {
  return listOf('opportunities')(body).map(({ pages, ...rest }) => ({ ...rest, ...(pages ? { pages: (pages as string[]).join(' | ') } : {}) }));
}

export const insightRoutes = [
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/insights/changes',
    operation: 'InsightChanges',
    field: 'changes',
    query: ['metric', 'period', 'compare', 'sp', 'force'],
    csvRows: driverRows,
    summary: 'What changed, and why',
    description:
      "The metric's change against the previous period (compare=year: 364 days earlier) split over the dimensions that explain it — sessionDefaultChannelGroup, country, deviceCategory, landingPage for analytics metrics (default sessions); query, page, country, device and engine for clicks, impressions, ctr, position — ranked by |contribution|. Contributions keep their sign and sum to each dimension's change; ratio metrics (engagementRate, bounceRate, ctr, position…) split each contribution into mix and rate. `significant` marks the drivers the answer stands behind (not small, not moving with the rest, not an echo of a stronger driver). One batchRunReports call for the total and the four dimensions, one more for the echo test.",
    tags: ['insights'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/insights/anomalies',
    operation: 'InsightAnomalies',
    field: 'anomalies',
    query: ['metric', 'period', 'interval', 'force'],
    csvRows: anomalyRows,
    summary: 'Days that break the pattern',
    description:
      "Days of the period (default 90days) whose value is far from the same weekday's median over the 4 weeks before, measured in robust spreads (MAD); in the total and in the largest segments of channel, country and device (search metrics: engine1 by country and device). Each with expected, observed, score, direction, kind (spike or shift) and the segments that moved most that day. Days the provider may still revise are not judged. interval=hour with clicks, impressions, ctr or position judges engine1's hours (its last 10 days) against the same hour of the 3 days before; each anomaly then carries `hour`.",
    tags: ['insights'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/insights/search-opportunities',
    operation: 'InsightSearchOpportunities',
    field: 'searchOpportunities',
    query: ['period', 'sp', 'brand', 'force'],
    csvRows: opportunityRows,
    summary: 'Search opportunities',
    description:
      "low_ctr: queries at positions 4–20 whose CTR is under 60% of the site's own CTR-by-position curve (ctrCurve in the answer); losing_clicks: queries and pages with at least 15% fewer clicks than the range before (5% with a worse position); lost_query: queries whose clicks fell to 0; cannibalisation: queries where several pages each take at least 15% of the impressions. Each with its numbers and clicksAtStake, at most 15 per kind, largest first. brand=brand|nonbrand keeps only queries with or without the project's brand terms.",
    tags: ['insights'],
  }),
];
