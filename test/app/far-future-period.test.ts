// A custom period in a far-future year (≥ 9995, where the five-year span limit lies past 9999) is a 400
// invalid_period on every surface that takes a period — REST routes, GraphQL and MCP — never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunnel } from '../../src/store/funnels-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { REST_ROUTES } from '../../src/rest/route-table.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { connect, RELAXED_LIMITS } from '../mcp/mcp-clients.ts';

let rt: SandboxRuntime;
let funnelKey: string;
const PERIODS = ['custom_9995-01-01_9995-01-02', 'custom_9999-12-31_9999-12-31', 'custom_9998-06-01_9999-12-31'];

beforeAll(async () => {
  rt = await createSandboxRuntime({ shared: RELAXED_LIMITS });
  const shop = await getProjectByKey(rt.store.db, 'acme-shop');
  const steps = [
    { name: 'Any page', type: 'page', match: 'begins_with', value: '/' },
    { name: 'Purchase', type: 'event', match: 'exact', value: 'purchase' },
  ] as const;
  funnelKey = (await createFunnel(rt.store.db, { projectId: shop!.id, key: 'checkout', name: 'Checkout', createdVia: 'cli', steps: [...steps] })).key;
});
afterAll(() => rt.dispose());

const periodRoutes = REST_ROUTES.filter((r) => (r.query as readonly string[]).includes('period'));

describe('far-future custom periods', () => {
  it('every REST route that takes a period answers 400 invalid_period', async () => {
    expect(periodRoutes.length).toBeGreaterThanOrEqual(10);
    for (const route of periodRoutes) {
      const path = route.path.replace(':projectKey', 'acme-shop').replace(':funnelKey', funnelKey);
      const needs = (route.query as readonly string[]).includes('dimension') ? '&dimension=country' : '';
      for (const period of PERIODS) {
        const res = await rt.get(`${path}?period=${period}${needs}`);
        expect(res.status, `${path} ${period}`).toBe(400);
        expect(res.body, path).toMatchObject({ code: 'invalid_period', param: 'period' });
        expect(res.body.detail).toContain('is after today');
      }
    }
  });

  it('GraphQL gives the invalid_period error', async () => {
    const res = await rt.request('/api/graphql', {
      method: 'POST',
      key: rt.demo.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ project(key: "acme-shop") { summary(period: "${PERIODS[0]}") { project } } }` }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'invalid_period', status: 400 });
  });

  it('MCP answers an isError result with the same message', async () => {
    const client = await connect(rt, 'v2-modern', rt.demo.apiKey);
    const result = await client.callTool({ name: 'get_site_summary', arguments: { project: 'acme-shop', period: PERIODS[0] } });
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content?.[0]?.text).toContain('END 9995-01-02 is after today');
  });
});
