// GET /metrics/{projectKey}/landing-pages: analytics landing pages joined with search pages on the normalised URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
const URL = '/api/v1/metrics/northwind-journal/landing-pages';
type Row = { page: string; sessions: number; engagementRate: number; keyEvents: number; clicks: number; impressions: number; ctr: number; position: number | null };

beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

describe('landing pages', () => {
  it('joins each landing path (on the project origin) with the combined search figures of the same URL', async () => {
    const { status, body } = await rt.get(`${URL}?limit=20`);
    expect(status).toBe(200);
    expect(body.meta.sources).toEqual(['analytics', 'engine1', 'engine2']);
    const rows = body.rows as Row[];
    expect(Object.keys(rows[0]!)).toEqual(['page', 'sessions', 'engagementRate', 'keyEvents', 'clicks', 'impressions', 'ctr', 'position']);
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.sessions).toBeGreaterThanOrEqual(rows[i]!.sessions);
    const joined = rows.filter((r) => r.sessions > 0 && r.clicks > 0);
    expect(joined.length).toBeGreaterThan(0);
    const search = await rt.get(`/api/v1/metrics/northwind-journal/search/dimension?dimension=page&limit=1000`);
    const byPage = new Map((search.body.rows as (Row & { page: string })[]).map((r) => [r.page, r]));
    for (const row of joined) {
      expect(row.page.startsWith('https://northwind-journal.example/')).toBe(true);
      expect(row).toMatchObject({ clicks: byPage.get(row.page)!.clicks, impressions: byPage.get(row.page)!.impressions, position: byPage.get(row.page)!.position });
    }
  });

  it('order and filter work on the joined rows; pages without search data have a null position', async () => {
    const byClicks = (await rt.get(`${URL}?order=-clicks&limit=10`)).body.rows as Row[];
    for (let i = 1; i < byClicks.length; i++) expect(byClicks[i - 1]!.clicks).toBeGreaterThanOrEqual(byClicks[i]!.clicks);
    const recipes = await rt.get(`${URL}?filter=${encodeURIComponent('page=@/recipes/')}&limit=1000`);
    expect((recipes.body.rows as Row[]).length).toBeGreaterThan(0);
    expect((recipes.body.rows as Row[]).every((r) => r.page.includes('/recipes/'))).toBe(true);
    expect(recipes.body.totalRows).toBe(recipes.body.rows.length);
    const all = (await rt.get(`${URL}?limit=1000&order=clicks`)).body.rows as Row[];
    const noSearch = all.filter((r) => r.impressions === 0);
    expect(noSearch.every((r) => r.position === null)).toBe(true);
  });

  it('sp narrows the engines; a missing engine is named with sp=all', async () => {
    const e1 = await rt.get(`${URL}?sp=engine1&limit=1`);
    expect(e1.body.meta.sources).toEqual(['analytics', 'engine1']);
    const tiny = await rt.get('/api/v1/metrics/tiny-saas/landing-pages?limit=1');
    expect(tiny.status).toBe(200);
    expect(tiny.body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'source_not_connected' }));
  });

  it.each([
    ['order=-bogus', 'order'],
    ['filter=country==deu', 'filter'],
    ['limit=5000', 'limit'],
    ['sp=yahoo', 'sp'],
    ['compare=previous', 'compare'],
  ])('%s → 400 naming %s, before any upstream call', async (query, param) => {
    rt.sandbox.resetStats();
    const { status, body } = await rt.get(`${URL}?${query}`);
    expect(status).toBe(400);
    expect(body.param).toBe(param);
    expect(rt.sandbox.stats().total).toBe(0);
  });
});
