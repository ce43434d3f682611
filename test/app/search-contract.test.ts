// The REST bodies of the search, funnel-results and observed endpoints match the contract schemas the MCP tools
// declare as outputSchema (src/contract/responses.ts), so structuredContent and REST cannot drift apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import {
  FunnelResultsResponse,
  ObservedEventsResponse,
  ObservedPagesResponse,
  SearchBreakdownResponse,
  SearchSummaryResponse,
  SearchTimeseriesResponse,
} from '../../src/contract/responses.ts';
import { createFunnel } from '../../src/store/funnels-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;

beforeAll(async () => {
  rt = await createSandboxRuntime();
  const project = await getProjectByKey(rt.store.db, 'northwind-journal');
  await createFunnel(rt.store.db, {
    projectId: project!.id,
    key: 'read-more',
    name: 'Read more',
    createdVia: 'cli',
    steps: [
      { name: 'Recipe', type: 'page', match: 'begins_with', value: '/recipes/' },
      { name: 'Scroll', type: 'event', match: 'exact', value: 'scroll' },
    ],
  });
});
afterAll(() => rt.dispose());

describe('contract shapes', () => {
  it.each<[string, ZodType]>([
    ['/api/v1/metrics/northwind-journal/search/summary', SearchSummaryResponse],
    ['/api/v1/metrics/northwind-journal/search/summary?sp=engine2&compare=none', SearchSummaryResponse],
    ['/api/v1/metrics/northwind-journal/search/timeseries?period=7days', SearchTimeseriesResponse],
    ['/api/v1/metrics/northwind-journal/search/timeseries?period=yesterday&interval=hour', SearchTimeseriesResponse],
    ['/api/v1/metrics/northwind-journal/search/dimension?dimension=page&limit=5', SearchBreakdownResponse],
    ['/api/v1/metrics/northwind-journal/search/dimension?dimension=country&limit=5', SearchBreakdownResponse],
    ['/api/v1/funnels/read-more/results', FunnelResultsResponse],
    ['/api/v1/metrics/northwind-journal/observed/events?limit=5', ObservedEventsResponse],
    ['/api/v1/metrics/northwind-journal/observed/pages?limit=5', ObservedPagesResponse],
  ])('%s', async (path, schema) => {
    const { status, body } = await rt.get(path);
    expect(status).toBe(200);
    const parsed = schema.safeParse(body);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });
});
