// REST routes for funnels. Definitions are stored by Siteline; the REST API never writes.
import { defineRestRoute } from '../rest-route.ts';

export const funnelRoutes = [
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/projects/:projectKey/funnels/list',
    operation: 'FunnelsList',
    field: 'project',
    query: [],
    summary: "A project's funnels",
    description: 'Funnel definitions stored by Siteline (created with the CLI or, after confirmation, through MCP).',
    tags: ['funnels'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/funnels/:funnelKey/results',
    operation: 'FunnelResults',
    field: 'funnelResults',
    query: ['period', 'force'],
    summary: "A funnel's users per step",
    description:
      'One provider funnel report (closed funnel: users must enter at step 1). conversionRate is measured from step 1, dropOff/dropOffRate from the previous step; completionRate = last step / step 1. Page steps match the page path; event steps the event name.',
    tags: ['funnels'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/observed/events',
    operation: 'ObservedEvents',
    field: 'observedEvents',
    query: ['period', 'limit', 'force'],
    summary: 'Events recorded in a period',
    description: 'Event names with eventCount and users, most frequent first (what funnel event steps can match).',
    tags: ['funnels'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/observed/pages',
    operation: 'ObservedPages',
    field: 'observedPages',
    query: ['period', 'limit', 'filter', 'force'],
    summary: 'Page paths viewed in a period',
    description: 'Page paths with screenPageViews and users, most viewed first (what funnel page steps can match); filter on pagePath, e.g. pagePath=@/checkout.',
    tags: ['funnels'],
  }),
];
