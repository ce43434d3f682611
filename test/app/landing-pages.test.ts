// GET /metrics/{projectKey}/landing-pages: analytics landing pages joined with search pages on the normalised URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { expectEvery } from '../helpers/expect-every.ts';

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
    expectEvery((recipes.body.rows as Row[]), (r) => r.page.includes('/recipes/'));
    expect(recipes.body.totalRows).toBe(recipes.body.rows.length);
    const all = (await rt.get(`${URL}?limit=1000&order=clicks`)).body.rows as Row[];
    const noSearch = all.filter((r) => r.impressions === 0);
    expectEvery(noSearch, (r) => r.position === null);
  });

  it('limit and offset page through the joined rows; totalRows counts them all', async () => {
    const first = await rt.get(`${URL}?limit=3`);
    const page = await rt.get(`${URL}?limit=2&offset=1`);
    expect(first.status).toBe(200);
    expect((first.body.rows as Row[]).length).toBe(3);
    expect(page.body.rows).toEqual((first.body.rows as Row[]).slice(1, 3));
    expect(page.body.totalRows).toBe(first.body.totalRows);
    expect(first.body.totalRows).toBeGreaterThan(3);
  });

  it('sp narrows the engines; a missing engine is named with sp=all', async () => {
    const e1 = await rt.get(`${URL}?sp=engine1&limit=1`);
    expect(e1.body.meta.sources).toEqual(['analytics', 'engine1']);
    const tiny = await rt.get('/api/v1/metrics/tiny-saas/landing-pages?limit=1');
    expect(tiny.status).toBe(200);
    expect(tiny.body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'source_not_connected' }));
  });

  it('warns of nothing it did not do: all analytics rows joined, every search page on the site', async () => {
    const { status, body } = await rt.get(`${URL}?sp=engine1&limit=1000`);
    expect(status).toBe(200);
    const codes = (body.meta.warnings as { code: string }[]).map((w) => w.code);
    expect(codes).not.toContain('rows_truncated');
    expect(codes).not.toContain('unmatched_hosts');
    expect((body.rows as Row[]).length).toBeGreaterThan(0);
    expectEvery(body.rows as Row[], (r) => r.page.startsWith('https://northwind-journal.example/'));
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

describe('landing pages whose paths collide after normalisation', () => {
  // The demo data never has two landing paths that normalise alike, so the analytics answer for the landing-page
  // report is rewritten: a page search data knows, with and without tracking parameters and a fragment, at
  // different engagement rates.
  const ORIGIN = 'https://northwind-journal.example';
  const PERIOD = 'period=custom_2026-05-01_2026-05-31';
  let path = '';
  const variants = () => [
    { path: `${path}?utm_source=newsletter&utm_medium=email`, sessions: 30, engagementRate: 0.2, keyEvents: 3 },
    { path, sessions: 10, engagementRate: 0.6, keyEvents: 1 },
    { path: `${path}?gclid=abc#reviews`, sessions: 60, engagementRate: 0.5, keyEvents: 2 },
    { path: '/about-collide-test', sessions: 5, engagementRate: 1, keyEvents: 0 },
  ];
  let collide: SandboxRuntime;
  let searchRow: Row;

  type Report = { dimensionHeaders?: { name: string }[]; metricHeaders?: { name: string }[]; rows?: unknown[]; rowCount?: number };
  function rewriteLandingReport(report: Report): Report {
    const dims = (report.dimensionHeaders ?? []).map((h) => h.name);
    if (!dims.includes('landingPage')) return report;
    const rows = variants().map((v) => ({
      dimensionValues: dims.map((d) => ({ value: d === 'landingPage' ? v.path : d === 'hostName' ? 'northwind-journal.example' : '(not set)' })),
      metricValues: (report.metricHeaders ?? []).map((m) => ({ value: String(v[m.name as 'sessions' | 'engagementRate' | 'keyEvents'] ?? 0) })),
    }));
    return { ...report, rows, rowCount: rows.length };
  }

  beforeAll(async () => {
    collide = await createSandboxRuntime({
      intercept: async (request, sandboxFetch) => {
        const res = await sandboxFetch(request);
        if (!/\/properties\/\d+:(batchRunReports|runReport)$/.test(new globalThis.URL(request.url).pathname) || !res.ok) return res;
        const body = (await res.json()) as Report & { reports?: Report[] };
        const rewritten = body.reports ? { ...body, reports: body.reports.map(rewriteLandingReport) } : rewriteLandingReport(body);
        return Response.json(rewritten, { status: res.status });
      },
    });
    const search = await collide.get(`/api/v1/metrics/northwind-journal/search/dimension?dimension=page&sp=engine1&limit=50&${PERIOD}`);
    searchRow = (search.body.rows as Row[]).find((r) => r.page.startsWith(`${ORIGIN}/`) && r.page.length > ORIGIN.length + 1 && !r.page.includes('?') && r.clicks > 0)!;
    path = searchRow.page.slice(ORIGIN.length);
  });
  afterAll(() => collide.dispose());

  it('adds the rows up under one normalised URL with a session-weighted rate, joined with that URL’s search figures', async () => {
    expect(path).toMatch(/^\//);
    const { status, body } = await collide.get(`${URL}?sp=engine1&limit=1000&${PERIOD}`);
    expect(status).toBe(200);
    const rows = body.rows as Row[];
    // Only the rewritten analytics rows have sessions: three collapse into one page, the fourth stays.
    expect(rows.filter((r) => r.sessions > 0).map((r) => r.page).sort()).toEqual([`${ORIGIN}/about-collide-test`, searchRow.page].sort());
    const merged = rows.filter((r) => r.page === searchRow.page);
    expect(merged[0]).toMatchObject({ page: searchRow.page, sessions: 100, keyEvents: 6, clicks: searchRow.clicks, impressions: searchRow.impressions });
    // (30·0.2 + 10·0.6 + 60·0.5) / 100 = 0.42; the unweighted mean of the three rates would be 0.433….
    expect(merged[0]!.engagementRate).toBeCloseTo(0.42, 10);
    expect(rows.find((r) => r.page === `${ORIGIN}/about-collide-test`)).toMatchObject({ sessions: 5, engagementRate: 1, clicks: 0 });
    expect(body.totalRows).toBe(rows.length);
  });
});

describe('landing pages: the edges of the join', () => {
  // The upstream answers are rewritten around what the demo data never has: analytics reporting more landing pages
  // than it returned, a landing page without sessions, search pages on a host outside the site, and one path
  // reported under both the apex and the www host.
  const ORIGIN = 'https://northwind-journal.example';
  const PERIOD = 'period=custom_2026-05-01_2026-05-31';
  const EXTRA_ANALYTICS_ROWS = 7;
  let edges: SandboxRuntime;

  type Report = { dimensionHeaders?: { name: string }[]; metricHeaders?: { name: string }[]; rows?: { dimensionValues: { value: string }[]; metricValues: { value: string }[] }[]; rowCount?: number };
  function withEdgeRows(report: Report): Report {
    const dims = (report.dimensionHeaders ?? []).map((h) => h.name);
    if (!dims.includes('landingPage')) return report;
    const metrics = (report.metricHeaders ?? []).map((m) => m.name);
    const zero = { dimensionValues: dims.map((d) => ({ value: d === 'landingPage' ? '/zero-sessions-test' : '(not set)' })), metricValues: metrics.map((m) => ({ value: m === 'engagementRate' ? '0.5' : '0' })) };
    const rows = [...(report.rows ?? []), zero];
    return { ...report, rows, rowCount: rows.length + EXTRA_ANALYTICS_ROWS };
  }
  const searchRow = (page: string, clicks: number, impressions: number, position: number) => ({ keys: [page], clicks, impressions, ctr: clicks / impressions, position });

  beforeAll(async () => {
    edges = await createSandboxRuntime({
      intercept: async (request, sandboxFetch) => {
        const path = new globalThis.URL(request.url).pathname;
        const asked = path.endsWith('/searchAnalytics/query') ? ((await request.clone().json()) as { dimensions?: string[] }) : undefined;
        const res = await sandboxFetch(request);
        if (!res.ok) return res;
        if (asked !== undefined && asked.dimensions?.length === 1 && asked.dimensions[0] === 'page') {
          const body = (await res.json()) as { rows?: unknown[] };
          const rows = [
            ...(body.rows ?? []),
            searchRow('https://elsewhere.example/borrowed-article', 4, 40, 6),
            searchRow(`${ORIGIN}/merge-test`, 10, 100, 2),
            searchRow('https://www.northwind-journal.example/merge-test', 30, 300, 6),
          ];
          return Response.json({ ...body, rows }, { status: res.status });
        }
        if (!/\/properties\/\d+:(batchRunReports|runReport)$/.test(path)) return res;
        const body = (await res.json()) as Report & { reports?: Report[] };
        return Response.json(body.reports ? { ...body, reports: body.reports.map(withEdgeRows) } : withEdgeRows(body), { status: res.status });
      },
    });
  });
  afterAll(() => edges.dispose());

  it('warns when analytics has more landing pages than it returned, and names the search hosts outside the site', async () => {
    const { status, body } = await edges.get(`${URL}?sp=engine1&limit=1000&${PERIOD}`);
    expect(status).toBe(200);
    const rows = body.rows as Row[];
    const warnings = body.meta.warnings as { code: string; message: string }[];
    const analyticsRows = rows.filter((r) => r.sessions > 0).length + 1; // + the page without sessions
    expect(warnings.find((w) => w.code === 'rows_truncated')?.message).toBe(
      `analytics reported ${analyticsRows + EXTRA_ANALYTICS_ROWS} landing pages; only the top ${analyticsRows} by sessions are joined.`,
    );
    const unmatched = warnings.find((w) => w.code === 'unmatched_hosts');
    expect(unmatched?.message).toMatch(/^Search pages on elsewhere\.example are not on the site's hosts \(/);
    expect(rows.find((r) => r.page === 'https://elsewhere.example/borrowed-article')).toEqual({
      page: 'https://elsewhere.example/borrowed-article', sessions: 0, engagementRate: 0, keyEvents: 0, clicks: 4, impressions: 40, ctr: 0.1, position: 6,
    });
  });

  it('a landing page without sessions has an engagement rate of 0, not the rate of nothing', async () => {
    const { body } = await edges.get(`${URL}?sp=engine1&limit=1000&${PERIOD}`);
    expect((body.rows as Row[]).find((r) => r.page === `${ORIGIN}/zero-sessions-test`)).toMatchObject({ sessions: 0, engagementRate: 0 });
  });

  it('adds up the apex and www copies of one path: clicks and impressions summed, position weighted by impressions', async () => {
    const { body } = await edges.get(`${URL}?sp=engine1&limit=1000&${PERIOD}`);
    const merged = (body.rows as Row[]).filter((r) => r.page === `${ORIGIN}/merge-test`);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ sessions: 0, clicks: 40, impressions: 400, ctr: 0.1 });
    expect(merged[0]!.position).toBeCloseTo((2 * 100 + 6 * 300) / 400, 10);
  });
});
