// Comparisons with a provider whose history does not reach the comparison range: previous/delta/deltaPct null
// and a comparison_unavailable warning naming the provider and its first day — never a 0 counted as history.
// Checked on REST, GraphQL and MCP, and as a property over random periods and comparison modes.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysAgo, unavailable, type Warning } from '../helpers/comparison-warnings.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { connect } from '../mcp/mcp-clients.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

const NULL_COMPARED = { previous: null, delta: null, deltaPct: null };

describe('search summary with engine2 history shorter than the comparison', () => {
  it('sp=all compare=year: engine2 compares with null, the combined totals are not compared, engine1 keeps its own comparison', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/search/summary?sp=all&compare=year');
    expect(status).toBe(200);
    expect(body.byProvider.engine2.clicks).toMatchObject(NULL_COMPARED);
    expect(body.byProvider.engine2.clicks.value).toBeGreaterThan(0);
    expect(body.byProvider.engine1.clicks.previous).toBeGreaterThan(0);
    expect(body.byProvider.engine1.clicks.deltaPct).toEqual(expect.any(Number));
    for (const metric of ['clicks', 'impressions', 'ctr']) expect(body.totals[metric], metric).toMatchObject(NULL_COMPARED);
    expect(body.totals.clicks.value).toBe(body.byProvider.engine1.clicks.value + body.byProvider.engine2.clicks.value);
    const [warning, ...others] = unavailable(body);
    expect(others).toEqual([]);
    expect(warning!.message).toMatch(/^engine2 has data from \d{4}-\d{2}-\d{2} on/);
    expect(warning!.message).toContain('byProvider.engine1');
  });

  it('sp=engine1 compare=year is covered by the 16-month window: plain numbers, no warning', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/search/summary?sp=engine1&compare=year');
    expect(body.totals.clicks.previous).toBeGreaterThan(0);
    expect(unavailable(body)).toEqual([]);
  });

  it('the default 28-day comparison is covered by both engines', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/search/summary');
    expect(body.totals.clicks.previous).toBeGreaterThan(0);
    expect(unavailable(body)).toEqual([]);
  });

  it('GraphQL and MCP give the same nulls and warning as REST', async () => {
    const rest = await rt.get('/api/v1/metrics/acme-shop/search/summary?compare=year');
    const figures = ['clicks', 'impressions', 'ctr', 'position'].map((f) => `${f} { value previous delta deltaPct }`).join(' ');
    const query = `{ project(key: "acme-shop") { search(compare: year) { totals { ${figures} } byProvider { engine1 { ${figures} } engine2 { ${figures} } } meta { warnings { code message } } } } }`;
    const res = await rt.request('/api/graphql', { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const gql = ((await res.json()) as { data: { project: { search: { totals: unknown; byProvider: unknown; meta: { warnings: Warning[] } } } } }).data.project.search;
    expect(gql.totals).toEqual(rest.body.totals);
    expect(gql.byProvider).toEqual(rest.body.byProvider);
    expect(unavailable(gql)).toEqual(unavailable(rest.body));
    const client = await connect(rt, 'v2-modern', rt.demo.apiKey);
    const result = await client.callTool({ name: 'get_search_summary', arguments: { project: 'acme-shop', compare: 'year' } });
    await client.close();
    const mcp = result.structuredContent as { totals: unknown; meta: { warnings: Warning[] } };
    expect(mcp.totals).toEqual(rest.body.totals);
    expect(unavailable(mcp)).toEqual(unavailable(rest.body));
  });
});

describe('analytics comparisons before the property has data', () => {
  it('summary: a year-ago range before the first day compares with null and names analytics and its first day', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/tiny-saas/summary?period=custom_2021-02-01_2021-02-28&compare=year');
    expect(status).toBe(200);
    expect(body.period.previous).toEqual({ start: '2020-02-03', end: '2020-03-01' });
    expect(body.metrics.sessions).toMatchObject({ ...NULL_COMPARED, value: expect.any(Number) });
    expect(body.metrics.sessions.value).toBeGreaterThan(0);
    expect(unavailable(body).map((w) => w.message)).toEqual([expect.stringMatching(/^analytics has data from 2021-01-01 on, so the comparison range 2020-02-03 – 2020-03-01 is not covered/)]);
  });

  it('summary: a range before the API accepts any date is not even asked for, and still compares with null', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/tiny-saas/summary?period=custom_2015-08-14_2015-09-01');
    expect(status).toBe(200);
    expect(body.metrics.sessions).toEqual({ value: expect.any(Number), ...NULL_COMPARED });
    expect(unavailable(body)).toHaveLength(1);
  });

  it('timeseries and breakdown give null previous values under the same warning', async () => {
    const series = await rt.get('/api/v1/metrics/acme-shop/timeseries?period=custom_2021-01-01_2021-01-07&compare=year&metric=sessions');
    expect(series.status).toBe(200);
    expect(series.body.total).toMatchObject(NULL_COMPARED);
    for (const point of series.body.points) expect(point.value).toMatchObject(NULL_COMPARED);
    expect(unavailable(series.body)).toHaveLength(1);
    const breakdown = await rt.get('/api/v1/metrics/acme-shop/dimension?dimension=deviceCategory&period=custom_2021-01-01_2021-01-07&compare=previous');
    expect(breakdown.status).toBe(200);
    for (const row of breakdown.body.rows) expect(row.sessions).toMatchObject(NULL_COMPARED);
    expect(unavailable(breakdown.body)).toHaveLength(1);
  });

  it('a covered comparison keeps real numbers, and a value absent from the previous range is a true 0', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/summary?period=custom_2022-03-01_2022-03-28&compare=year');
    expect(body.metrics.sessions.previous).toBeGreaterThan(0);
    expect(unavailable(body)).toEqual([]);
  });
});

describe('property: no compared number has previous 0 for a range its provider does not cover', () => {
  it('holds for random periods, comparison modes and projects on the summaries', async () => {
    const ANALYTICS_FIRST_DAY = '2021-01-01';
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('acme-shop', 'northwind-journal', 'tiny-saas'),
        fc.integer({ min: 3, max: 2100 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom('previous', 'year'),
        async (project, endAgo, length, compare) => {
          const period = `custom_${daysAgo(endAgo + length - 1)}_${daysAgo(endAgo)}`;
          const site = await rt.get(`/api/v1/metrics/${project}/summary?period=${period}&compare=${compare}`);
          expect(site.status).toBe(200);
          const previousStart: string = site.body.period.previous.start;
          const covered = previousStart >= ANALYTICS_FIRST_DAY;
          for (const metric of Object.values(site.body.metrics) as { previous: number | null }[]) {
            if (covered) expect(metric.previous).toEqual(expect.any(Number));
            else expect(metric.previous).toBeNull();
          }
          expect(unavailable(site.body).some((w) => w.message.startsWith('analytics '))).toBe(!covered);

          const search = await rt.get(`/api/v1/metrics/${project}/search/summary?period=${period}&compare=${compare}`);
          expect(search.status).toBe(200);
          for (const [engine, figures] of Object.entries(search.body.byProvider) as [string, { clicks: { previous: number | null } }][]) {
            const named = unavailable(search.body).some((w) => w.message.startsWith(`${engine} `));
            expect(figures.clicks.previous === null, `${engine} ${period} ${compare}`).toBe(named);
            // What each engine keeps (a day either side for the Pacific/UTC difference): engine1 16 months, engine2 ~6.
            const keeps = engine === 'engine1' ? 486 : 183;
            if (previousStart < daysAgo(keeps + 2)) expect(figures.clicks.previous, `${engine} ${period}`).toBeNull();
            if (previousStart > daysAgo(keeps - 2)) expect(figures.clicks.previous, `${engine} ${period}`).toEqual(expect.any(Number));
          }
          if (unavailable(search.body).length > 0) expect(search.body.totals.clicks.previous).toBeNull();
        },
      ),
      { numRuns: 12 },
    );
  });
});
