// REST routes for projects.
import { defineRestRoute } from '../rest-route.ts';

export const projectRoutes = [
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/projects/list',
    operation: 'ProjectsList',
    query: [],
    summary: 'List the projects you may read',
    description: 'Only projects the caller may read, sorted by key. Each carries its data sources and their last upstream status.',
    tags: ['projects'],
  }),
  defineRestRoute({
    method: 'GET',
    path: '/api/v1/projects/:projectKey',
    operation: 'Project',
    query: [],
    summary: 'One project',
    description: 'Unknown projects and projects the caller may not read answer the same 404.',
    tags: ['projects'],
  }),
];
