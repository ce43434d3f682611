// Insights read the same coverage as the reports: a range a provider's history does not reach is never 0. With
// sp=all an insight compares like for like (the engines whose history covers both ranges), its change equals the
// search summary's comparison of those engines, the engine left out is named in a comparison_unavailable warning,
// and it never appears as a driver with a previous of 0. The period is the (2026-10-18 – 2026-11-14 on
// 2026-11-26), kept at the same distance from today so that "a year ago" is before engine2's ~6 months of history
// and inside engine1's 16 months on every run (the sandbox's data and its JWT checks follow the real clock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysAgo, unavailable, type Warning } from '../helpers/comparison-warnings.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { connect } from '../mcp/mcp-clients.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

/** Each insight is computed once per run and read by several tests (explaining a search metric is heavy). */
const answers = new Map<string, Promise<{ status: number; body: any }>>();
const read = (path: string) => {
  if (!answers.has(path)) answers.set(path, rt.get(path));
  return answers.get(path)!;
};
const SLOW = 300_000;

type Compared = { value: number; previous: number | null; delta: number | null; deltaPct: number | null };
type Driver = { dimension: string; value: string; previous: number | null; significant: boolean };

const PERIOD = `custom_${daysAgo(39)}_${daysAgo(12)}`;
const CHANGES = `/api/v1/metrics/acme-shop/insights/changes?metric=clicks&period=${PERIOD}&compare=year&sp=all`;
const SUMMARY = `/api/v1/metrics/acme-shop/search/summary?period=${PERIOD}&compare=year&sp=all`;
/** The other cases on the medium site: the same rule, a fraction of acme-shop's ~26,000 queries to decompose. */
const onNorthwind = (path: string) => path.replace('/acme-shop/', '/northwind-journal/');

describe('explain_change over a range engine2 does not cover (compare=year, sp=all)', () => {
  it('REST: the change is engine1 like for like, equal to the search summary; engine2 is named, never a driver with previous 0', async () => {
    const [changes, summary] = await Promise.all([read(CHANGES), read(SUMMARY)]);
    expect(changes.status).toBe(200);
    expect(summary.status).toBe(200);
    // The search summary: engine2 uncovered, engine1 covered.
    expect(summary.body.byProvider.engine2.clicks.previous).toBeNull();
    const engine1: Compared = summary.body.byProvider.engine1.clicks;
    expect(engine1.previous).toBeGreaterThan(0);

    expect(changes.body.change).toEqual(engine1);
    const drivers = changes.body.drivers as Driver[];
    expect(drivers.filter((d) => d.dimension === 'engine')).toEqual([]);
    expect(drivers.every((d) => d.previous !== null)).toBe(true);
    const [warning, ...more] = unavailable(changes.body);
    expect(more).toEqual([]);
    expect(warning!.message).toMatch(/^engine2 has data from \d{4}-\d{2}-\d{2} on, so the comparison range \d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2} is not covered/);
    expect(warning!.message).toContain('engine1');
  }, SLOW);

  it('impressions and ctr follow the same rule', async () => {
    const summary = await read(onNorthwind(SUMMARY));
    for (const metric of ['impressions', 'ctr']) {
      const { status, body } = await read(onNorthwind(CHANGES).replace('metric=clicks', `metric=${metric}`));
      expect(status, metric).toBe(200);
      expect(body.change.previous, metric).toBeCloseTo(summary.body.byProvider.engine1[metric].previous, 6);
      expect(body.change.value, metric).toBeCloseTo(summary.body.byProvider.engine1[metric].value, 6);
      expect((body.drivers as Driver[]).some((d) => d.dimension === 'engine'), metric).toBe(false);
      expect(unavailable(body), metric).toHaveLength(1);
    }
  }, SLOW);

  it('sp=engine2 alone cannot be compared: previous null, no drivers, and the warning — never a 0', async () => {
    const { status, body } = await read(CHANGES.replace('sp=all', 'sp=engine2'));
    expect(status).toBe(200);
    expect(body.change).toMatchObject({ previous: null, delta: null, deltaPct: null });
    expect(body.change.value).toBeGreaterThan(0);
    expect(body.drivers).toEqual([]);
    expect(unavailable(body)).toHaveLength(1);
  }, SLOW);

  it('a covered comparison still compares both engines (the engine dimension is there)', async () => {
    const { body } = await read(onNorthwind(CHANGES).replace('compare=year', 'compare=previous'));
    const summary = await read(onNorthwind(SUMMARY).replace('compare=year', 'compare=previous'));
    expect(unavailable(body)).toEqual([]);
    expect(body.change).toEqual(summary.body.totals.clicks);
    expect((body.dimensions as { dimension: string }[]).map((d) => d.dimension)).toContain('engine');
  }, SLOW);

  it('GraphQL Project.changes and MCP explain_change give the REST answer', async () => {
    const rest = await read(onNorthwind(CHANGES));
    expect(unavailable(rest.body)).toHaveLength(1);
    expect(rest.body.change).toEqual((await read(onNorthwind(SUMMARY))).body.byProvider.engine1.clicks);
    expect(rest.body.meta.sources).toEqual(['engine1']);
    const query = `{ project(key: "northwind-journal") { changes(metric: "clicks", period: "${PERIOD}", compare: year, sp: all) { change { value previous delta deltaPct } drivers { dimension value previous } meta { warnings { code message } } } } }`;
    const res = await rt.request('/api/graphql', { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const json = (await res.json()) as { data: { project: { changes: { change: Compared; drivers: Driver[]; meta: { warnings: Warning[] } } } } };
    const gql = json.data.project.changes;
    expect(gql.change).toEqual(rest.body.change);
    expect(gql.drivers.some((d) => d.dimension === 'engine')).toBe(false);
    expect(unavailable(gql)).toEqual(unavailable(rest.body));

    const client = await connect(rt, 'v2-modern', rt.demo.apiKey);
    const result = await client.callTool({ name: 'explain_change', arguments: { project: 'northwind-journal', metric: 'clicks', period: PERIOD, compare: 'year', sp: 'all' } });
    await client.close();
    const mcp = result.structuredContent as { change: Compared; meta: { warnings: Warning[] } };
    expect(mcp.change).toEqual(rest.body.change);
    expect(unavailable(mcp)).toEqual(unavailable(rest.body));
  }, SLOW);
});
