// The three insight endpoints on the demo (in-process sandbox): answer shapes validated by their response
// schemas, decomposition sums, batching, errors as problem JSON naming the parameter, CSV, and the same
// answer through GraphQL's Project fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsightAnomaliesResponse, InsightChangesResponse, InsightSearchOpportunitiesResponse } from '../../src/contract/responses.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { expectEvery } from '../helpers/expect-every.ts';

let rt: SandboxRuntime;
const BASE = '/api/v1/metrics/acme-shop/insights';

beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

interface Driver {
  dimension: string;
  value: string;
  contribution: number;
  share?: number;
  significant: boolean;
  mix?: number;
  rate?: number;
}

describe('insights/changes', () => {
  it('decomposes sessions by four dimensions from one batchRunReports call; each dimension sums to the change', async () => {
    rt.sandbox.resetStats();
    const { status, body } = await rt.get(`${BASE}/changes?period=custom_2026-03-02_2026-03-15`);
    expect(status).toBe(200);
    InsightChangesResponse.parse(body);
    expect(rt.sandbox.stats().analytics.batchRunReports).toBe(1);
    expect(body).toMatchObject({ project: 'acme-shop', metric: 'sessions', kind: 'additive', period: { previous: { start: '2026-02-16', end: '2026-03-01' } } });
    expect(body.change.delta).toBe(body.change.value - body.change.previous);
    const drivers = body.drivers as Driver[];
    expect(drivers.length).toBeGreaterThan(0);
    // Significant drivers lead; each group is ranked by |contribution|.
    const significant = drivers.filter((d) => d.significant);
    expect(drivers.slice(0, significant.length)).toEqual(significant);
    for (const group of [significant, drivers.filter((d) => !d.significant)]) {
      const magnitudes = group.map((d) => Math.abs(d.contribution));
      expect(magnitudes).toEqual([...magnitudes].sort((a, b) => b - a));
    }
    expect((body.dimensions as { dimension: string }[]).map((d) => d.dimension)).toEqual(['sessionDefaultChannelGroup', 'country', 'deviceCategory', 'landingPage']);
    for (const d of body.dimensions as { dimension: string; delta: number }[]) {
      if (d.dimension === 'landingPage') continue; // GA rows by landing page may omit "(not set)" sessions
      expect(d.delta).toBeCloseTo(body.change.delta, 0);
    }
    // The listed devices' contributions and the part of the devices not listed add up to the total change.
    const devices = drivers.filter((d) => d.dimension === 'deviceCategory');
    const unlisted = (body.dimensions as { dimension: string; unlisted: number }[]).find((d) => d.dimension === 'deviceCategory')!.unlisted;
    expect(devices.length).toBeGreaterThan(0);
    expect(devices.reduce((a, d) => a + d.contribution, 0) + unlisted).toBeCloseTo(body.change.delta, 0);
    for (const d of drivers) if (d.share !== undefined) expect(d.share).toBeCloseTo(d.contribution / body.change.delta, 3);
  });

  it('splits a ratio metric into mix and rate effects that add up to each contribution', async () => {
    const { status, body } = await rt.get(`${BASE}/changes?metric=engagementRate&period=7days`);
    expect(status).toBe(200);
    expect(body.kind).toBe('ratio');
    const drivers = body.drivers as Driver[];
    expectEvery(drivers, (d) => Math.abs(d.mix! + d.rate! - d.contribution) < 1e-5);
    expect(body.change.delta).toBeCloseTo(body.change.value - body.change.previous, 5);
  });

  it('does not split a rate over nothing: no drivers, and a warning saying why', async () => {
    // Search Console has no data for today yet: ctr has no impressions behind it in the period.
    const { status, body } = await rt.get('/api/v1/metrics/tiny-saas/insights/changes?metric=ctr&period=today');
    expect(status).toBe(200);
    expect(body.change.value).toBe(0);
    expect(body.drivers).toEqual([]);
    expect(body.dimensions).toEqual([]);
    expect(body.meta.warnings.map((w: { code: string }) => w.code)).toContain('not_split');
  });

  it('explains a search metric by query, page, country, device and engine', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/northwind-journal/insights/changes?metric=clicks&period=28days');
    expect(status).toBe(200);
    InsightChangesResponse.parse(body);
    expect((body.dimensions as { dimension: string }[]).map((d) => d.dimension)).toEqual(['query', 'page', 'country', 'device', 'engine']);
    // The engines' listed contributions and the engine dimension's unlisted part add up to the change (a small
    // engine may be cut from the drivers; it is then in `unlisted`).
    const engines = (body.drivers as Driver[]).filter((d) => d.dimension === 'engine');
    const engine = (body.dimensions as { dimension: string; delta: number; unlisted: number }[]).find((d) => d.dimension === 'engine')!;
    expect(engine.delta).toBe(body.change.delta);
    expect(engines.reduce((a, d) => a + d.contribution, 0) + engine.unlisted).toBe(body.change.delta);
    expect(body.meta.sources).toEqual(['engine1', 'engine2']);
  }, 60_000);

  it.each([
    ['metric=nope', 'metric'],
    ['metric=averageSessionDuration', 'metric'],
    ['compare=none', 'compare'],
    ['period=lastweek', 'period'],
    ['sp=yahoo&metric=clicks', 'sp'],
  ])('%s → 400 naming %s', async (query, param) => {
    const { status, body, headers } = await rt.get(`${BASE}/changes?${query}`);
    expect(status).toBe(400);
    expect(headers.get('content-type')).toContain('application/problem+json');
    expect(body.param).toBe(param);
  });

  it('format=csv has one row per driver', async () => {
    const res = await rt.request(`${BASE}/changes?format=csv`, { key: rt.demo.apiKey });
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(lines[0]!.startsWith('dimension,value,contribution,share,current,previous,significant')).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
  });
});

describe('insights/anomalies', () => {
  it('answers 90 days with its baseline stated; no anomaly on a day the provider may still revise', async () => {
    const { status, body } = await rt.get(`${BASE}/anomalies`);
    expect(status).toBe(200);
    InsightAnomaliesResponse.parse(body);
    expect(body).toMatchObject({ metric: 'sessions', period: { name: '90days' } });
    expect(body.baseline).toContain('same weekday');
    const processing = (body.meta.warnings as { code: string; message: string }[]).find((w) => w.code === 'incomplete_data');
    expect(processing).toBeDefined();
    for (const a of body.anomalies as { date: string }[]) expect(a.date < body.period.end).toBe(true);
  });

  it('interval=hour judges engine1 hours, each anomaly with its hour; analytics metrics cannot', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/tiny-saas/insights/anomalies?metric=clicks&interval=hour');
    expect(status).toBe(200);
    InsightAnomaliesResponse.parse(body);
    expect(body.baseline).toContain('same hour');
    expect(body.meta.sources).toEqual(['engine1']);
    for (const a of body.anomalies as { date: string; hour: string }[]) expect(a.hour.startsWith(a.date)).toBe(true);
    const refused = await rt.get('/api/v1/metrics/tiny-saas/insights/anomalies?interval=hour');
    expect(refused.status).toBe(400);
    expect(refused.body.param).toBe('interval');
    const week = await rt.get('/api/v1/metrics/tiny-saas/insights/anomalies?interval=week');
    expect(week.body.param).toBe('interval');
  });

  it('rejects an unknown metric naming it', async () => {
    const { status, body } = await rt.get(`${BASE}/anomalies?metric=sesions`);
    expect(status).toBe(400);
    expect(body.param).toBe('metric');
  });
});

describe('insights/search-opportunities', () => {
  it('states the site CTR curve and lists opportunities with clicks at stake, largest first per kind', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/northwind-journal/insights/search-opportunities');
    expect(status).toBe(200);
    InsightSearchOpportunitiesResponse.parse(body);
    expect(body.brandTerms).toEqual(['northwind journal', 'northwindjournal', 'northwind-journal']);
    expect(body.ctrCurve).toHaveLength(20);
    const opportunities = body.opportunities as { kind: string; clicksAtStake: number; query?: string; pages?: string[] }[];
    expect(opportunities.length).toBeGreaterThan(0);
    const lowCtr = opportunities.filter((o) => o.kind === 'low_ctr');
    expectEvery(lowCtr, (o) => o.clicksAtStake > 0);
    expectEvery(opportunities.filter((o) => o.kind === 'cannibalisation'), (o) => o.pages!.length >= 2);
  }, 60_000);

  it('brand=nonbrand keeps only queries without the brand terms', async () => {
    const { body } = await rt.get('/api/v1/metrics/northwind-journal/insights/search-opportunities?brand=nonbrand');
    expect(body.brand).toBe('nonbrand');
    expectEvery((body.opportunities as { brand?: boolean; query?: string }[]).filter((o) => o.query !== undefined), (o) => o.brand === false && !o.query!.includes('northwind'));
  }, 60_000);

  it('brand=maybe → 400 naming brand', async () => {
    const { status, body } = await rt.get(`${BASE}/search-opportunities?brand=maybe`);
    expect(status).toBe(400);
    expect(body.param).toBe('brand');
  });

  it('format=csv joins competing pages into one cell', async () => {
    const res = await rt.request('/api/v1/metrics/northwind-journal/insights/search-opportunities?format=csv', { key: rt.demo.apiKey });
    const text = await res.text();
    expect(text.split('\r\n')[0]).toContain('clicksAtStake');
    expect(text).toContain(' | ');
  });
});

describe('GraphQL Project fields', () => {
  it('Project.changes answers as the REST endpoint does, typed', async () => {
    const query = '{ project(key: "acme-shop") { changes(period: "7days") { metric change { value previous delta deltaPct } drivers { dimension value contribution significant } } } }';
    const res = await rt.request('/api/graphql', { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const { data } = (await res.json()) as { data: { project: { changes: { change: unknown; drivers: Driver[] } } } };
    const rest = await rt.get(`${BASE}/changes?period=7days`);
    expect(data.project.changes.change).toEqual(rest.body.change);
    expect(data.project.changes.drivers).toEqual((rest.body.drivers as Driver[]).map(({ dimension, value, contribution, significant }) => ({ dimension, value, contribution, significant })));
  });
});
