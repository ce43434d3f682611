// GET /metrics/{projectKey}/search/dimension: dimensions per engine, paging and ordering, filters (engine1
// upstream, engine2 locally, unsupported ones refused before any upstream call), CSV and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { expectEvery } from '../helpers/expect-every.ts';

let rt: SandboxRuntime;
// northwind-journal: a medium site keeps full breakdowns quick while both engines are connected.
const URL = '/api/v1/metrics/northwind-journal/search/dimension';
type Row = Record<string, unknown> & { clicks: number; impressions: number; ctr: number; position: number; byProvider: Record<string, { clicks: number }> };

beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

describe('search breakdown', () => {
  it('by query: rows combined across engines, sorted by clicks, paged with limit/offset', async () => {
    const { status, body } = await rt.get(`${URL}?dimension=query&limit=10`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ dimension: 'query', sp: 'all', limit: 10, offset: 0 });
    const rows = body.rows as Row[];
    expect(rows).toHaveLength(10);
    expect(body.totalRows).toBeGreaterThan(10);
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.clicks).toBeGreaterThanOrEqual(rows[i]!.clicks);
    expect(rows.some((r) => r.byProvider.engine1 && r.byProvider.engine2)).toBe(true);
    for (const r of rows) {
      expect(typeof r.query).toBe('string');
      expect(r.clicks).toBe(Object.values(r.byProvider).reduce((a, p) => a + p.clicks, 0));
    }
    const next = await rt.get(`${URL}?dimension=query&limit=5&offset=5`);
    expect((next.body.rows as Row[]).map((r) => r.query)).toEqual(rows.slice(5).map((r) => r.query));
    expect(body.meta.dataThrough).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.meta.warnings.map((w: { code: string }) => w.code)).toContain('weekly_data');
  });

  it('order takes any search metric, ascending or with - descending; anything else is a 400', async () => {
    const asc = (await rt.get(`${URL}?dimension=page&order=position&limit=20`)).body.rows as Row[];
    for (let i = 1; i < asc.length; i++) expect(asc[i - 1]!.position).toBeLessThanOrEqual(asc[i]!.position);
    const desc = (await rt.get(`${URL}?dimension=page&order=-impressions&limit=20`)).body.rows as Row[];
    for (let i = 1; i < desc.length; i++) expect(desc[i - 1]!.impressions).toBeGreaterThanOrEqual(desc[i]!.impressions);
    expect((await rt.get(`${URL}?dimension=page&order=sessions`)).body).toMatchObject({ status: 400, param: 'order' });
  });

  it('country, device and date come from engine1 alone, with a warning naming engine2', async () => {
    const country = await rt.get(`${URL}?dimension=country&limit=5`);
    expect(country.status).toBe(200);
    expect(country.body.meta.sources).toEqual(['engine1']);
    expect(country.body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'source_left_out', message: expect.stringContaining('engine2') }));
    for (const r of country.body.rows as Row[]) expect(r.country).toMatch(/^[a-z]{3}$/);
    const device = await rt.get(`${URL}?dimension=device`);
    expect(new Set((device.body.rows as Row[]).map((r) => r.device))).toEqual(new Set(['desktop', 'mobile', 'tablet']));
    const date = await rt.get(`${URL}?dimension=date&period=7days&order=-clicks`);
    expect(date.body.totalRows).toBe(7);
  });

  it('a dimension engine2 cannot serve, asked of engine2 alone, is a 400 naming engine2', async () => {
    rt.sandbox.resetStats();
    const { body } = await rt.get(`${URL}?dimension=device&sp=engine2`);
    expect(body).toMatchObject({ status: 400, param: 'dimension', provider: 'engine2' });
    expect(rt.sandbox.stats().total).toBe(0);
  });

  it('a filter on the breakdown dimension goes upstream to engine1 and applies locally to engine2', async () => {
    const { body } = await rt.get(`${URL}?dimension=query&filter=${encodeURIComponent('query=@recipe')}&limit=1000`);
    const rows = body.rows as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expectEvery(rows, (r) => (r.query as string).includes('recipe'));
    expect(rows.some((r) => r.byProvider.engine2)).toBe(true);
    expect(body.meta.sources).toEqual(['engine1', 'engine2']);
  });

  it('a filter on another dimension leaves engine2 out (sp=all) or is a 400 naming engine2 and the filter (sp=engine2)', async () => {
    const all = await rt.get(`${URL}?dimension=query&filter=${encodeURIComponent('country==deu')}`);
    expect(all.status).toBe(200);
    expect(all.body.meta.sources).toEqual(['engine1']);
    expect(all.body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'source_left_out', message: expect.stringContaining('country==deu') }));
    const alone = await rt.get(`${URL}?dimension=query&sp=engine2&filter=${encodeURIComponent('country==deu')}`);
    expect(alone.body).toMatchObject({ status: 400, param: 'filter', provider: 'engine2' });
    expect(alone.body.detail).toContain('country==deu');
  });

  it.each([
    ['query=@a,country==deu', 'different dimensions'],
    ['query!=a,query==b', 'negated'],
    ['date==2026-01-01', 'cannot filter on "date"'],
  ])('engine1 cannot express %s: 400 naming engine1 and the filter, no upstream call', async (filter, why) => {
    rt.sandbox.resetStats();
    const { body } = await rt.get(`${URL}?dimension=query&filter=${encodeURIComponent(filter)}`);
    expect(body).toMatchObject({ status: 400, param: 'filter', provider: 'engine1' });
    expect(body.detail).toContain(filter);
    expect(body.detail).toContain(why);
    expect(rt.sandbox.stats().total).toBe(0);
  });

  it.each([
    ['', 'dimension'],
    ['dimension=city', 'dimension'],
    ['dimension=query&filter=browser==x', 'filter'],
    ['dimension=query&filter=query%3D%3D', 'filter'],
    ['dimension=query&limit=0', 'limit'],
    ['dimension=query&limit=1001', 'limit'],
    ['dimension=query&offset=-1', 'offset'],
    ['dimension=query&metrics=clicks', 'metrics'],
  ])('%s → 400 naming %s', async (query, param) => {
    const { status, body } = await rt.get(`${URL}?${query}`);
    expect(status).toBe(400);
    expect(body.param).toBe(param);
  });

  it('format=csv flattens byProvider into engine columns', async () => {
    const res = await rt.request(`${URL}?dimension=query&limit=3&format=csv`, { key: rt.demo.apiKey });
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]!.startsWith('query,clicks,impressions,ctr,position,engine1.clicks')).toBe(true);
    expect(lines).toHaveLength(4);
  });
});
