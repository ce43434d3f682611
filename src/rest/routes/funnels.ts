// REST routes for funnels (SPEC §4 Funnels). Definitions are stored by Siteline; the REST API never writes.
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
];
