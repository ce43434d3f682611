// GET /funnels/{funnelKey}/results and the observed events/pages the funnel steps are checked against.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunnel } from '../../src/store/funnels-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { createAccountWithKey } from '../helpers/test-runtime.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { expectEvery } from '../helpers/expect-every.ts';

let rt: SandboxRuntime;
type Step = { name: string; users: number; conversionRate: number; dropOff: number; dropOffRate: number };

beforeAll(async () => {
  rt = await createSandboxRuntime();
  const shop = await getProjectByKey(rt.store.db, 'acme-shop');
  await createFunnel(rt.store.db, {
    projectId: shop!.id,
    key: 'checkout',
    name: 'Checkout',
    createdVia: 'cli',
    steps: [
      { name: 'Product page', type: 'page', match: 'begins_with', value: '/products/' },
      { name: 'Added to cart', type: 'event', match: 'exact', value: 'add_to_cart' },
      { name: 'Checkout', type: 'event', match: 'contains', value: 'checkout' },
      { name: 'Purchase', type: 'event', match: 'regex', value: '^purchase$' },
    ],
  });
});
afterAll(() => rt.dispose());

describe('funnel results', () => {
  it('one funnel report call gives users per stored step, conversion from step 1 and drop-off from the previous step', async () => {
    rt.sandbox.resetStats();
    const { status, body } = await rt.get('/api/v1/funnels/checkout/results?period=28days');
    expect(status).toBe(200);
    expect(rt.sandbox.stats().analytics).toEqual({ runFunnelReport: 1 });
    expect(body).toMatchObject({ project: 'acme-shop', funnel: { key: 'checkout', name: 'Checkout' }, period: { name: '28days' } });
    const steps = body.steps as Step[];
    expect(steps.map((s) => s.name)).toEqual(['Product page', 'Added to cart', 'Checkout', 'Purchase']);
    expect(steps[0]).toMatchObject({ conversionRate: 1, dropOff: 0, dropOffRate: 0 });
    expect(steps[0]!.users).toBeGreaterThan(0);
    for (let i = 1; i < steps.length; i++) {
      const [prev, step] = [steps[i - 1]!, steps[i]!];
      expect(step.users).toBeLessThanOrEqual(prev.users);
      expect(step.dropOff).toBe(prev.users - step.users);
      expect(step.dropOffRate).toBeCloseTo(step.dropOff / prev.users, 12);
      expect(step.conversionRate).toBeCloseTo(step.users / steps[0]!.users, 12);
    }
    expect(body.completionRate).toBeCloseTo(steps[3]!.users / steps[0]!.users, 12);
    expect(body.meta.sources).toEqual(['analytics']);

    rt.sandbox.resetStats();
    expect((await rt.get('/api/v1/funnels/checkout/results?period=28days')).body.steps).toEqual(steps);
    expect(rt.sandbox.stats().total).toBe(0);
  });

  it('a funnel the caller cannot see and an unknown funnel answer the same 404', async () => {
    const { key } = await createAccountWithKey({ ...rt, demo: undefined }, { email: 'other@example.com', projects: ['elsewhere'] });
    const hidden = await rt.request('/api/v1/funnels/checkout/results', { key });
    const unknown = await rt.get('/api/v1/funnels/nope/results');
    expect(hidden.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(((await hidden.json()) as { detail: string }).detail).toBe(unknown.body.detail.replace('nope', 'checkout'));
  });

  it.each([
    ['period=13days', 'period'],
    ['force=true', 'force'],
    ['compare=none', 'compare'],
  ])('%s → 400 naming %s', async (query, param) => {
    const { status, body } = await rt.get(`/api/v1/funnels/checkout/results?${query}`);
    expect(status).toBe(400);
    expect(body.param).toBe(param);
  });
});

describe('observed events and pages', () => {
  it('events most frequent first, with users, limited', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/observed/events?limit=5');
    expect(status).toBe(200);
    const rows = body.rows as { eventName: string; eventCount: number; users: number }[];
    expect(rows).toHaveLength(5);
    expect(body.totalRows).toBeGreaterThan(5);
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.eventCount).toBeGreaterThanOrEqual(rows[i]!.eventCount);
    expect(rows.map((r) => r.eventName)).toContain('page_view');
  });

  it('pages most viewed first, filtered on pagePath upstream', async () => {
    const { body } = await rt.get(`/api/v1/metrics/acme-shop/observed/pages?limit=50&filter=${encodeURIComponent('pagePath=@/products/')}`);
    const rows = body.rows as { pagePath: string; screenPageViews: number; users: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expectEvery(rows, (r) => r.pagePath.includes('/products/'));
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.screenPageViews).toBeGreaterThanOrEqual(rows[i]!.screenPageViews);
    expect((await rt.get('/api/v1/metrics/acme-shop/observed/pages?filter=country==x')).body).toMatchObject({ status: 400, param: 'filter' });
    expect((await rt.get('/api/v1/metrics/acme-shop/observed/events?limit=abc')).body).toMatchObject({ status: 400, param: 'limit' });
  });
});
