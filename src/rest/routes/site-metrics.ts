// REST routes for site metrics from analytics (SPEC §4 Site metrics).
import { defineRestRoute } from '../rest-route.ts';

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
];
