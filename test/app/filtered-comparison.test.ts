// A filtered breakdown compared with an earlier range: each row's `previous` is the same filter over the comparison
// range (the user's filter AND the page's values), for every metric asked for — on REST, GraphQL and MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { connect } from '../mcp/mcp-clients.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

type Compared = { value: number; previous: number | null; delta: number | null; deltaPct: number | null };
type Row = Record<string, string | Compared>;
const BASE = '/api/v1/metrics/acme-shop/dimension';
const METRICS = ['activeUsers', 'sessions', 'screenPageViews'];

/** The same breakdown over the comparison range, asked for directly (every row, no comparison). */
async function sameFilterOver(range: { start: string; end: string }, dimension: string, filter: string): Promise<Map<string, Record<string, number>>> {
  const q = new URLSearchParams({ dimension, metrics: METRICS.join(','), filter, period: `custom_${range.start}_${range.end}`, compare: 'none', limit: '1000' });
  const { status, body } = await rt.get(`${BASE}?${q}`);
  expect(status).toBe(200);
  return new Map((body.rows as Record<string, string | number>[]).map((r) => [String(r[dimension]), r as Record<string, number>]));
}

describe('a filtered breakdown compared with an earlier range', () => {
  it.each([
    ['the issue: country, mobile only, previous 28 days', 'country', 'deviceCategory==mobile', '28days', 'previous'],
    ['two filters (AND), a year earlier', 'country', 'deviceCategory==mobile;sessionDefaultChannelGroup==Organic Search', '28days', 'year'],
    ['an OR filter on the broken-down dimension itself', 'deviceCategory', 'deviceCategory==mobile,deviceCategory==tablet', '7days', 'previous'],
    ['a negated filter, second page', 'sessionDefaultChannelGroup', 'country!=Germany', '90days', 'previous'],
  ])('%s: previous is the same filter over the comparison range', async (_name, dimension, filter, period, compare) => {
    const q = new URLSearchParams({ dimension, metrics: METRICS.join(','), filter, period, compare, ...(filter.startsWith('country!=') ? { offset: '2', limit: '3' } : {}) });
    const { status, body } = await rt.get(`${BASE}?${q}`);
    expect(status).toBe(200);
    const rows = body.rows as Row[];
    expect(rows.length).toBeGreaterThan(0);
    const reference = await sameFilterOver(body.period.previous, dimension, filter);
    for (const row of rows) {
      const value = String(row[dimension]);
      for (const metric of METRICS) {
        const figure = row[metric] as Compared;
        expect(figure.previous, `${value} ${metric}`).toBe(reference.get(value)?.[metric] ?? 0);
      }
    }
  });

  it('the issue on REST: Germany mobile is compared with Germany mobile, not with all of Germany', async () => {
    const filtered = await rt.get(`${BASE}?dimension=country&metrics=sessions&filter=deviceCategory==mobile&period=28days&compare=previous`);
    const unfiltered = await rt.get(`${BASE}?dimension=country&metrics=sessions&period=28days&compare=previous`);
    const germany = (body: { rows: Row[] }) => body.rows.find((r) => r.country === 'Germany')!.sessions as Compared;
    expect(germany(filtered.body).previous).toBeLessThan(germany(unfiltered.body).previous!);
    // Mobile is a share of Germany both times: the change stays in the same range as the unfiltered one.
    expect(Math.abs(germany(filtered.body).deltaPct!)).toBeLessThan(0.3);
  });

  it('GraphQL Project.breakdown and MCP get_site_breakdown compare the same way', async () => {
    const rest = await rt.get(`${BASE}?dimension=country&metrics=sessions,activeUsers&filter=deviceCategory==mobile&period=28days&compare=previous&limit=5`);
    const restRows = (rest.body.rows as Row[]).map((r) => ({ value: r.country, sessions: r.sessions, activeUsers: r.activeUsers }));
    const reference = await sameFilterOver(rest.body.period.previous, 'country', 'deviceCategory==mobile');
    for (const row of restRows) expect((row.sessions as Compared).previous, String(row.value)).toBe(reference.get(String(row.value))?.sessions ?? 0);
    const query = `{ project(key: "acme-shop") { breakdown(dimension: "country", metrics: "sessions,activeUsers", filter: "deviceCategory==mobile", period: "28days", compare: previous, limit: 5) { rows { value sessions: metric(name: "sessions") { value previous delta deltaPct } activeUsers: metric(name: "activeUsers") { value previous delta deltaPct } } } } }`;
    const res = await rt.request('/api/graphql', { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const json = (await res.json()) as { data: { project: { breakdown: { rows: unknown[] } } }; errors?: unknown };
    expect(json.errors).toBeUndefined();
    expect(json.data.project.breakdown.rows).toEqual(restRows);

    const client = await connect(rt, 'v2-modern', rt.demo.apiKey);
    const result = await client.callTool({
      name: 'get_site_breakdown',
      arguments: { project: 'acme-shop', dimension: 'country', metrics: 'sessions,activeUsers', filter: 'deviceCategory==mobile', period: '28days', compare: 'previous', limit: 5 },
    });
    await client.close();
    expect((result.structuredContent as { rows: Row[] }).rows).toEqual(rest.body.rows);
  });
});
