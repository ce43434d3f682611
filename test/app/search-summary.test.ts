// GET /metrics/{projectKey}/search/summary against the in-process sandbox: shape, comparisons, sp choices,
// missing engines, errors, and the upstream call count (cold = 1 engine1 + at most 1 engine2, warm = 0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../helpers/test-runtime.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
const URL = '/api/v1/metrics/acme-shop/search/summary';

beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

const codes = (body: { meta: { warnings: { code: string; message: string }[] } }) => body.meta.warnings.map((w) => w.code);
const upstream = () => {
  const s = rt.sandbox.stats();
  return { engine1: Object.values(s.engine1).reduce((a, b) => a + b, 0), engine2: Object.values(s.engine2).reduce((a, b) => a + b, 0), analytics: Object.values(s.analytics).reduce((a, b) => a + b, 0) };
};

describe('search summary', () => {
  it('a cold sp=all summary with its comparison costs 1 engine1 call and 1 engine2 call; a warm repeat costs none', async () => {
    rt.sandbox.resetStats();
    const cold = await rt.get('/api/v1/metrics/northwind-journal/search/summary');
    expect(cold.status).toBe(200);
    expect(cold.body.meta.cache).toBe('miss');
    expect(upstream()).toEqual({ engine1: 1, engine2: 1, analytics: 0 });
    rt.sandbox.resetStats();
    const warm = await rt.get('/api/v1/metrics/northwind-journal/search/summary');
    expect(warm.status).toBe(200);
    expect(warm.body.totals).toEqual(cold.body.totals);
    expect(upstream()).toEqual({ engine1: 0, engine2: 0, analytics: 0 });
  });

  it('compares with the previous period by default: every figure is {value, previous, delta, deltaPct}', async () => {
    const { status, body, headers } = await rt.get(URL);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('application/json');
    expect(body).toMatchObject({ project: 'acme-shop', sp: 'all', period: { name: '28days', timezone: 'Europe/Berlin' } });
    expect(body.period.previous).toBeDefined();
    for (const metric of ['clicks', 'impressions', 'ctr', 'position']) {
      expect(Object.keys(body.totals[metric])).toEqual(['value', 'previous', 'delta', 'deltaPct']);
    }
    const { clicks } = body.totals;
    expect(clicks.delta).toBe(clicks.value - clicks.previous);
    expect(clicks.value).toBe(body.byProvider.engine1.clicks.value + body.byProvider.engine2.clicks.value);
    expect(body.meta.sources).toEqual(['engine1', 'engine2']);
    // engine2 site totals carry no position: null, not a number that would drag the mean.
    expect(body.byProvider.engine2.position).toBeNull();
    expect(body.totals.position.value).toBe(body.byProvider.engine1.position.value);
    expect(codes(body)).toContain('position_unavailable');
  });

  it('compare=none gives plain numbers with CTR recomputed from the sums', async () => {
    const { body } = await rt.get(`${URL}?compare=none`);
    const { totals, byProvider } = body;
    expect(body.period.previous).toBeUndefined();
    expect(totals.impressions).toBe(byProvider.engine1.impressions + byProvider.engine2.impressions);
    expect(totals.ctr).toBeCloseTo(totals.clicks / totals.impressions, 12);
    expect(totals.ctr).not.toBeCloseTo((byProvider.engine1.ctr + byProvider.engine2.ctr) / 2, 6);
  });

  it('compare=year compares with the weekday-aligned range 364 days earlier, still from one engine1 call', async () => {
    rt.sandbox.resetStats();
    const { body } = await rt.get(`${URL}?compare=year&period=7days`);
    const shift = (Date.parse(body.period.start) - Date.parse(body.period.previous.start)) / 86_400_000;
    expect(shift).toBe(364);
    expect(upstream().engine1).toBe(1);
  });

  it('reports engine1 freshness: dataThrough and a warning when the period reaches into incomplete days', async () => {
    const recent = await rt.get(`${URL}?period=7days`);
    expect(recent.body.meta.dataThrough).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(recent.body.meta.dataThrough < recent.body.period.end).toBe(true);
    expect(codes(recent.body)).toContain('incomplete_data');
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const old = await rt.get(`${URL}?period=custom_${daysAgo(60)}_${daysAgo(40)}&compare=none`);
    expect(old.status).toBe(200);
    expect(old.body.meta.dataThrough).toBe(daysAgo(40));
    expect(codes(old.body)).not.toContain('incomplete_data');
  });

  it('sp=google / sp=bing are aliases echoed as engine1 / engine2, and only that engine answers', async () => {
    const google = await rt.get(`${URL}?sp=google&compare=none`);
    expect(google.body.sp).toBe('engine1');
    expect(google.body.meta.sources).toEqual(['engine1']);
    expect(Object.keys(google.body.byProvider)).toEqual(['engine1']);
    expect(google.body.totals).toEqual(google.body.byProvider.engine1);
    const bing = await rt.get(`${URL}?sp=bing&compare=none`);
    expect(bing.body.sp).toBe('engine2');
    expect(bing.body.meta.sources).toEqual(['engine2']);
    expect(bing.body.totals.position).toBeNull();
    expect(bing.body.meta.dataThrough).toBeUndefined();
  });

  it('a missing engine is left out and named with sp=all, and a 409 when asked for alone', async () => {
    const all = await rt.get('/api/v1/metrics/tiny-saas/search/summary');
    expect(all.status).toBe(200);
    expect(all.body.meta.sources).toEqual(['engine1']);
    expect(all.body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'source_not_connected', message: expect.stringContaining('engine2') }));
    expect(Object.keys(all.body.byProvider)).toEqual(['engine1']);
    const alone = await rt.get('/api/v1/metrics/tiny-saas/search/summary?sp=engine2');
    expect(alone.status).toBe(409);
    expect(alone.body).toMatchObject({ code: 'source_not_connected', provider: 'engine2' });
  });

  it('force=1 refreshes from upstream; other force values are a 400', async () => {
    await rt.get(`${URL}?period=90days`);
    rt.sandbox.resetStats();
    const forced = await rt.get(`${URL}?period=90days&force=1`);
    expect(forced.body.meta.cache).toBe('refresh');
    expect(upstream()).toEqual({ engine1: 1, engine2: 1, analytics: 0 });
    expect((await rt.get(`${URL}?force=yes`)).body).toMatchObject({ status: 400, param: 'force' });
  });

  it.each([
    ['sp=yahoo', 'sp', 'invalid_parameter'],
    ['compare=lastyear', 'compare', 'invalid_parameter'],
    ['period=custom_2026-02-10_2026-02-01', 'period', 'invalid_period'],
    ['period=2days', 'period', 'invalid_period'],
    ['metric=clicks', 'metric', 'invalid_parameter'],
  ])('%s → 400 naming %s', async (query, param, code) => {
    rt.sandbox.resetStats();
    const { status, body } = await rt.get(`${URL}?${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code, param });
    expect(rt.sandbox.stats().total).toBe(0);
  });

  it('an unknown project and one the caller may not read answer the same 404', async () => {
    const unknown = await rt.get('/api/v1/metrics/nope/search/summary');
    const { key } = await createAccountWithKey({ ...rt, demo: undefined }, { email: 'outsider@example.com', projects: ['other-site'] });
    const hidden = await rt.request(URL, { key });
    expect(unknown.status).toBe(404);
    expect(hidden.status).toBe(404);
    expect(((await hidden.json()) as { detail: string }).detail).toBe("No project 'acme-shop' is visible to you.");
  });
});
