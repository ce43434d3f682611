// Additive metrics add up, for random requests on the demo projects:
// - a breakdown's rows add up to the summary (unfiltered) or to another partition of the same filtered traffic,
//   in the period and in the comparison range, whenever every row is there and none is thresholded, sampled or
//   cut to (other) (the answer's warnings and totalRows say so);
// - timeseries points add up to the total, and the total is the summary's number;
// - sp=all is engine1 + engine2: clicks and impressions add up, CTR is clicks / impressions and the position is
//   the impression-weighted mean, on the search summary, timeseries and breakdown alike.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { analyticsFilterArbitrary, compareArbitrary, periodArbitrary, projectArbitrary, searchBreakdownRequest, searchTimeseriesRequest } from './support/arbitraries.ts';
import { check, FLOAT_TOLERANCE, holds, type Check, RELATION_TIMEOUT } from './support/property.ts';
import { ApiRequest, labelled } from './support/request.ts';
import { firstDifference } from './support/bodies.ts';
import { useWorld } from './support/world.ts';

const world = useWorld();

/** Every session (and everything it does) falls in exactly one value of these. */
const SESSION_PARTITIONS = ['country', 'continent', 'city', 'deviceCategory', 'operatingSystem', 'browser', 'sessionDefaultChannelGroup', 'sessionSource', 'sessionMedium', 'landingPage'] as const;
const PARTITION_METRICS = ['sessions', 'engagedSessions', 'screenPageViews', 'eventCount', 'keyEvents'];
/** What else adds up over a dimension that is not a session partition: views over pages, events over event names. */
const OTHER_ADDITIVE: Record<string, string[]> = { pagePath: ['screenPageViews'], eventName: ['eventCount', 'keyEvents'] };
/** Warnings after which the rows no longer add up to the whole, by design. */
const NOT_WHOLE = ['thresholded', 'other_row', 'sampled', 'rows_truncated'];

type Figure = number | { value: number; previous: number | null };
const valueOf = (f: Figure) => (typeof f === 'number' ? f : f.value);
const previousOf = (f: Figure) => (typeof f === 'number' ? undefined : f.previous);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Rows add up to `whole` in value and, when both compare and are covered, in previous. */
function assertAddsUp(c: Check, what: string, rows: Figure[], whole: Figure): void {
  c.equal(`Σ ${what}`, sum(rows.map(valueOf)), valueOf(whole));
  const previous = rows.map(previousOf);
  const wholePrevious = previousOf(whole);
  if (wholePrevious === null || wholePrevious === undefined || previous.some((p) => p === null || p === undefined)) return;
  c.equal(`Σ ${what}.previous`, sum(previous as number[]), wholePrevious);
}

const isWhole = (body: { rows: unknown[]; totalRows: number; meta: { warnings: { code: string }[] } }) => body.rows.length === body.totalRows && !body.meta.warnings.some((w) => NOT_WHOLE.includes(w.code));

describe('additive metrics add up', { timeout: RELATION_TIMEOUT }, () => {
  it("a breakdown's rows add up to the summary, or to another partition under the same filter", async () => {
    const w = world();
    const cases = projectArbitrary(w).chain((project) =>
      fc
        .record({
          dimension: fc.constantFrom(...SESSION_PARTITIONS, 'pagePath', 'eventName'),
          other: fc.constantFrom(...SESSION_PARTITIONS),
          filter: fc.option(analyticsFilterArbitrary(w, project), { nil: undefined }),
          compare: compareArbitrary,
          period: periodArbitrary(w, project),
          pick: fc.nat(),
        })
        .map(({ dimension, other, filter, compare, period, pick }) => {
          const additive = OTHER_ADDITIVE[dimension] ?? PARTITION_METRICS;
          const metrics = [...new Set([additive[pick % additive.length]!, additive[(pick >> 1) % additive.length]!])];
          const request = new ApiRequest('breakdown', project, { dimension, metrics: metrics.join(','), filter, compare, period: period.period, limit: '1000' });
          return labelled({ request, metrics, other }, filter === undefined ? String(request) : `${request} (against dimension=${other})`);
        }),
    );
    await holds(cases, async ({ request, metrics, other }) => {
      const { project } = request;
      const { filter, compare, period } = request.params;
      const dimension = request.params.dimension!;
      const body = await w.json(request);
      if (!isWhole(body)) return;
      const c = check('breakdown rows add up', request, 'REST');
      if (filter === undefined) {
        const summary = await w.json(new ApiRequest('summary', project, { period, compare: compare ?? 'none' }));
        for (const m of metrics) assertAddsUp(c, `rows.${m} vs the summary`, body.rows.map((r: Record<string, Figure>) => r[m]!), summary.metrics[m]);
        return;
      }
      const otherRequest = request.with({ dimension: other, metrics: metrics.filter((m) => PARTITION_METRICS.includes(m)).join(',') || 'sessions' });
      const partition = await w.json(otherRequest);
      if (!isWhole(partition) || !(SESSION_PARTITIONS as readonly string[]).includes(dimension)) return;
      for (const m of otherRequest.params.metrics!.split(',')) {
        if (!metrics.includes(m)) continue;
        const whole = { value: sum(partition.rows.map((r: Record<string, Figure>) => valueOf(r[m]!))), previous: sumPrevious(partition.rows.map((r: Record<string, Figure>) => r[m]!)) };
        assertAddsUp(c, `rows.${m} vs ${otherRequest}`, body.rows.map((r: Record<string, Figure>) => r[m]!), compare === undefined || compare === 'none' ? whole.value : whole);
      }
    }, 40);
  });

  it('timeseries points add up to the total, and the total is the summary’s number', async () => {
    const w = world();
    const cases = projectArbitrary(w).chain((project) =>
      fc.record({ metric: fc.constantFrom(...PARTITION_METRICS), compare: compareArbitrary, period: periodArbitrary(w, project) }).chain(({ metric, compare, period }) =>
        fc
          .constantFrom(undefined, 'day', 'week', 'month', ...(period.days <= 10 ? ['hour'] : []))
          .map((interval) => new ApiRequest('timeseries', project, { metric, period: period.period, interval, compare })),
      ),
    );
    await holds(cases, async (request) => {
      const { project } = request;
      const { compare, period } = request.params;
      const metric = request.params.metric!;
      const body = await w.json(request);
      const c = check('timeseries points add up to the total and the summary', request, 'REST');
      const figures: Figure[] = body.points.map((p: { value: Figure }) => p.value);
      if (body.interval === 'hour' && body.meta.warnings.some((w: { code: string }) => w.code === 'partial_period')) {
        // Today's hours stop at the current one; the comparison's later hours pair with hours that have no point
        // yet, so they count in total.previous only (docs/rest-api.md).
        c.equal('Σ points', sum(figures.map(valueOf)), valueOf(body.total));
        const previous = figures.map(previousOf);
        const whole = previousOf(body.total);
        if (typeof whole === 'number' && previous.every((p) => typeof p === 'number')) c.that('Σ points.previous ≤ total.previous', sum(previous as number[]) <= whole, `${sum(previous as number[])} > ${whole}`);
      } else {
        assertAddsUp(c, 'points', figures, body.total);
      }
      const summary = await w.json(new ApiRequest('summary', project, { period, compare: compare ?? 'none' }));
      c.equal('total vs the summary', valueOf(body.total), valueOf(summary.metrics[metric]));
      c.equal('total.previous vs the summary', previousOf(body.total) ?? null, previousOf(summary.metrics[metric]) ?? null);
    }, 30);
  });
});

describe('sp=all is engine1 + engine2', { timeout: RELATION_TIMEOUT }, () => {
  const figures = ['clicks', 'impressions', 'ctr', 'position'] as const;

  it('search summary: the combined totals and byProvider are the engines asked alone', async () => {
    const w = world();
    const cases = projectArbitrary(w).chain((project) =>
      fc.record({ compare: compareArbitrary, period: periodArbitrary(w, project) }).map(({ compare, period }) => new ApiRequest('searchSummary', project, { period: period.period, compare, sp: 'all' })),
    );
    await holds(cases, async (request) => {
      const { project } = request;
      const all = await w.json(request);
      const c = check('sp=all is engine1 + engine2', request, 'REST');
      const alone: Record<string, any> = {};
      for (const engine of w.engines[project]!) alone[engine] = (await w.json(request.with({ sp: engine }))).totals;
      for (const [engine, totals] of Object.entries(alone)) {
        const found = firstDifference(all.byProvider[engine], totals, { tolerance: FLOAT_TOLERANCE });
        c.that(`byProvider.${engine} is what sp=${engine} answers`, found === undefined, found);
      }
      const parts = Object.values(alone).map((t) => ({ clicks: figureValue(t.clicks), impressions: figureValue(t.impressions), position: t.position === null ? null : figureValue(t.position) }));
      assertCombined(c, 'totals', { clicks: figureValue(all.totals.clicks), impressions: figureValue(all.totals.impressions), ctr: figureValue(all.totals.ctr), position: all.totals.position === null ? null : figureValue(all.totals.position) }, parts);
      const previous = Object.values(alone).map((t) => ({ clicks: t.clicks?.previous, impressions: t.impressions?.previous, position: t.position?.previous ?? null }));
      if (all.totals.clicks?.previous != null && previous.every((p) => p.clicks != null)) {
        assertCombined(c, 'totals (previous)', { clicks: all.totals.clicks.previous, impressions: all.totals.impressions.previous, ctr: all.totals.ctr.previous, position: all.totals.position?.previous ?? null }, previous);
      }
    }, 30);
  });

  it('search timeseries: each point is its engines combined, the points add up to the totals, and the totals are the summary’s', async () => {
    const w = world();
    await holds(searchTimeseriesRequest(w), async (request) => {
      const body = await w.json(request);
      const c = check('search timeseries adds up', request, 'REST');
      for (const p of body.points) {
        if (p.byProvider) assertCombined(c, `points[${p.date ?? p.time}]`, p, Object.values(p.byProvider).filter((e) => e !== null) as Parts);
        c.equal(`points[${p.date ?? p.time}].ctr`, p.ctr, p.impressions === 0 ? 0 : p.clicks / p.impressions, FLOAT_TOLERANCE);
      }
      c.equal('Σ points.clicks', sum(body.points.map((p: { clicks: number }) => p.clicks)), body.totals.clicks);
      c.equal('Σ points.impressions', sum(body.points.map((p: { impressions: number }) => p.impressions)), body.totals.impressions);
      if (body.interval === 'hour') return; // engine1's hourly data is its own series, not its daily rows cut in 24
      const summary = await w.json(new ApiRequest('searchSummary', request.project, { period: request.params.period, sp: request.params.sp, compare: 'none' }));
      for (const f of figures) c.equal(`totals.${f} vs the search summary`, body.totals[f], summary.totals[f], FLOAT_TOLERANCE);
    }, 30);
  });

  it('search breakdown: each row is its engines combined', async () => {
    const w = world();
    await holds(searchBreakdownRequest(w), async (request) => {
      const body = await w.json(request);
      const c = check('sp=all is engine1 + engine2', request, 'REST');
      for (const row of body.rows) {
        const where = `rows[${row[body.dimension]}]`;
        c.equal(`${where}.ctr`, row.ctr, row.impressions === 0 ? 0 : row.clicks / row.impressions, FLOAT_TOLERANCE);
        if (row.byProvider) assertCombined(c, where, row, Object.values(row.byProvider).filter((e) => e !== null) as Parts);
      }
    }, 30);
  });
});

type Parts = { clicks: number; impressions: number; position: number | null }[];

const figureValue = (f: { value: number } | number | null | undefined) => (f === null || f === undefined ? 0 : typeof f === 'number' ? f : f.value);

function sumPrevious(figures: Figure[]): number | null {
  const previous = figures.map(previousOf);
  return previous.some((p) => p === null || p === undefined) ? null : sum(previous as number[]);
}

/** Clicks and impressions add up; CTR is recomputed; the position is the impression-weighted mean of the engines that have one. */
function assertCombined(c: Check, where: string, combined: { clicks: number; impressions: number; ctr: number; position: number | null }, parts: Parts): void {
  c.equal(`${where}.clicks = Σ engines`, combined.clicks, sum(parts.map((p) => p.clicks)));
  c.equal(`${where}.impressions = Σ engines`, combined.impressions, sum(parts.map((p) => p.impressions)));
  c.equal(`${where}.ctr = clicks / impressions`, combined.ctr, combined.impressions === 0 ? 0 : combined.clicks / combined.impressions, FLOAT_TOLERANCE);
  const positioned = parts.filter((p) => p.position !== null && p.impressions > 0);
  const weight = sum(positioned.map((p) => p.impressions));
  const expected = positioned.length === 0 ? null : sum(positioned.map((p) => p.position! * p.impressions)) / weight;
  if (combined.position !== null || expected !== null) c.equal(`${where}.position = impression-weighted mean`, combined.position, expected, FLOAT_TOLERANCE);
}
