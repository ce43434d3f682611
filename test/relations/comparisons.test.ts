// Relations of compared numbers, for random requests on the demo projects:
// - a compared number's `previous` is what the same request (same filter, dimension values and metrics) answers
//   over the previous range, and its delta and deltaPct follow from value and previous;
// - where a provider's history does not reach the previous range, previous is null and a warning names the
//   provider; where it does, previous is a number (never a 0 standing in for missing history).
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { addDays, diffDays } from '../../src/domain/calendar.ts';
import {
  breakdownRequest,
  changesRequest,
  comparingArbitrary,
  filterValue,
  searchSummaryRequest,
  summaryRequest,
  timeseriesRequest,
} from './support/arbitraries.ts';
import { assertCoverage, comparedFigures, coverageOf, COVERAGE_RELATION, EARLIEST_START, unavailableNames } from './support/coverage.ts';
import { check, FLOAT_TOLERANCE, holds, type Check, RELATION_TIMEOUT } from './support/property.ts';
import { ApiRequest } from './support/request.ts';
import { useWorld, type World } from './support/world.ts';

const world = useWorld();

const PREVIOUS_RELATION = "a compared number's previous equals the same request over the previous range";
type Compared = { value: number; previous: number | null; delta: number | null; deltaPct: number | null };

/** The request for the echoed previous range, not compared; undefined when no provider could have data for it. */
function previousRangeOf(request: ApiRequest, body: { period: { previous?: { start: string; end: string } } }, extra: Record<string, string | undefined> = {}): ApiRequest | undefined {
  const previous = body.period.previous!;
  if (previous.start < EARLIEST_START) return undefined;
  return request.with({ period: `custom_${previous.start}_${previous.end}`, compare: 'none', ...extra });
}

interface TimePoint {
  time: string;
  value: Compared;
}

/**
 * The period's hour a comparison hour pairs with: the same wall-clock hour `shift` days later, or the next hour that
 * day has (clocks jumped over it), the first of two (clocks went back); none after the period's last point (today).
 */
function pairedTime(points: readonly TimePoint[], time: string, shift: number): string | undefined {
  const date = addDays(time.slice(0, 10), shift);
  const hour = time.slice(11, 13);
  return points.find((p) => p.time.slice(0, 10) === date && p.time.slice(11, 13) >= hour)?.time;
}

/** delta = value − previous and deltaPct = delta / |previous| to 4 decimals (null when previous is 0 or null). */
function assertConsistent(c: Check, where: string, f: Compared): void {
  if (f.previous === null) return;
  c.equal(`${where}.delta`, f.delta, f.value - f.previous, FLOAT_TOLERANCE);
  // Both sides are rounded to 4 decimals, so they may differ by one unit in the last (0.0001, plus binary noise).
  c.equal(`${where}.deltaPct`, f.deltaPct, f.previous === 0 ? null : Math.round(((f.value - f.previous) / Math.abs(f.previous)) * 10_000) / 10_000, 1.5e-4);
}

/** Only requests that compare: the summaries' default (previous) or an explicit previous/year. */
const comparing = (request: ApiRequest) => request.params.compare !== 'none' && (request.params.compare !== undefined || request.route === 'summary' || request.route === 'searchSummary');

describe(PREVIOUS_RELATION, { timeout: RELATION_TIMEOUT }, () => {
  it('site summary: every metric', async () => {
    const w = world();
    await holds(summaryRequest(w).filter(comparing), async (request) => {
      const body = await w.json(request);
      const c = check(PREVIOUS_RELATION, request, 'REST');
      const before = previousRangeOf(request, body);
      const metrics = Object.entries(body.metrics as Record<string, Compared>);
      for (const [name, f] of metrics) assertConsistent(c, `metrics.${name}`, f);
      if (!before || metrics.every(([, f]) => f.previous === null)) return;
      const then = await w.json(before);
      for (const [name, f] of metrics) if (f.previous !== null) c.equal(`metrics.${name}.previous vs ${before}`, f.previous, then.metrics[name], FLOAT_TOLERANCE);
    }, 30);
  });

  it('site timeseries: the total, and each bucket over the days (or hours) it pairs with', async () => {
    const w = world();
    await holds(timeseriesRequest(w).filter(comparing), async (request) => {
      const body = await w.json(request);
      const c = check(PREVIOUS_RELATION, request, 'REST');
      assertConsistent(c, 'total', body.total);
      for (const p of body.points) assertConsistent(c, `points[${p.date ?? p.time}]`, p.value);
      const before = previousRangeOf(request, body, { interval: body.interval });
      if (!before || body.total.previous === null) return;
      const then = await w.json(before);
      c.equal(`total.previous vs ${before}`, body.total.previous, then.total, FLOAT_TOLERANCE);
      // Day k of the previous range pairs with day k of the period (docs/rest-api.md, Comparisons).
      const shift = diffDays(body.period.previous.start, body.period.start);
      if (body.interval === 'hour') {
        const points: TimePoint[] = body.points;
        const expected = new Map<string, number>();
        for (const p of then.points as { time: string; value: number }[]) {
          const key = pairedTime(points, p.time, shift);
          if (key !== undefined) expected.set(key, (expected.get(key) ?? 0) + p.value);
        }
        for (const p of points) c.equal(`points[${p.time}].previous vs ${before}'s hours ${shift} days earlier`, p.value.previous, expected.get(p.time) ?? 0, FLOAT_TOLERANCE);
        return;
      }
      // Days, weeks and months: the first, middle and last buckets (the first and last may be cut by the period).
      // A calendar comparison may be longer or shorter than the period: its days past the period's last day count in
      // the last bucket, and a shorter one leaves the last buckets fewer (or no) days.
      const n = body.points.length;
      const previousEnd: string = body.period.previous.end;
      for (const i of new Set([0, Math.floor(n / 2), n - 1])) {
        const p = body.points[i] as { date: string; value: Compared };
        const start = addDays(p.date, -shift);
        const end = i + 1 < n ? addDays(body.points[i + 1].date, -1 - shift) : previousEnd;
        const clipped = end < previousEnd ? end : previousEnd;
        if (start > clipped) {
          c.that(`points[${p.date}].previous is 0 or null: no day of the comparison range pairs with it`, p.value.previous === 0 || p.value.previous === null, JSON.stringify(p.value));
          continue;
        }
        const paired = request.with({ period: `custom_${start}_${clipped}`, compare: 'none', interval: 'month' });
        c.equal(`points[${p.date}].previous vs the total of ${paired}`, p.value.previous, (await w.json(paired)).total, FLOAT_TOLERANCE);
      }
    }, 30);
  });

  it('site breakdown: each row and metric, under the same filter', async () => {
    const w = world();
    await holds(breakdownRequest(w, { compare: comparingArbitrary }), async (request) => {
      const body = await w.json(request);
      const c = check(PREVIOUS_RELATION, request, 'REST');
      const dimension: string = body.dimension;
      const metrics: string[] = body.metrics;
      for (const row of body.rows) for (const m of metrics) assertConsistent(c, `rows[${row[dimension]}].${m}`, row[m]);
      // The previous range restricted to this page's values, and to the request's own filter.
      const values = (body.rows as Record<string, unknown>[]).map((r) => String(r[dimension])).filter((v) => v !== '' && v !== '(other)');
      if (values.length === 0 || body.rows.every((r: Record<string, Compared>) => r[metrics[0]!]!.previous === null)) return;
      const onPage = values.map((v) => `${dimension}==${filterValue(v)}`).join(',');
      const filter = request.params.filter ? `${request.params.filter};${onPage}` : onPage;
      const before = previousRangeOf(request, body, { filter, limit: '1000', offset: undefined, order: undefined, metrics: metrics.join(',') });
      if (!before) return;
      const then = await w.json(before);
      const previousOf = new Map((then.rows as Record<string, number>[]).map((r) => [String(r[dimension]), r]));
      for (const row of body.rows as Record<string, Compared>[]) {
        const value = String(row[dimension]);
        if (!values.includes(value)) continue;
        // A value without a row in the covered previous range had no activity then: a true 0.
        for (const m of metrics) if (row[m]!.previous !== null) c.equal(`rows[${value}].${m}.previous vs ${before}`, row[m]!.previous, previousOf.get(value)?.[m] ?? 0, FLOAT_TOLERANCE);
      }
    }, 40);
  });

  it('search summary: combined totals and each engine', async () => {
    const w = world();
    await holds(searchSummaryRequest(w).filter(comparing), async (request) => {
      const body = await w.json(request);
      const c = check(PREVIOUS_RELATION, request, 'REST');
      const groups: [string, Record<string, Compared>][] = [['totals', body.totals], ...Object.entries(body.byProvider as Record<string, Record<string, Compared>>).map(([e, f]): [string, Record<string, Compared>] => [`byProvider.${e}`, f])];
      for (const [where, figures] of groups) for (const [name, f] of Object.entries(figures)) if (f !== null) assertConsistent(c, `${where}.${name}`, f);
      const before = previousRangeOf(request, body);
      if (!before || groups.every(([, f]) => f.clicks?.previous === null)) return;
      const then = await w.json(before);
      for (const [where, figures] of groups) {
        const earlier = where === 'totals' ? then.totals : then.byProvider[where.slice('byProvider.'.length)];
        for (const [name, f] of Object.entries(figures)) if (f !== null && f.previous !== null) c.equal(`${where}.${name}.previous vs ${before}`, f.previous, earlier?.[name], FLOAT_TOLERANCE);
      }
    }, 30);
  });
});

describe(COVERAGE_RELATION, { timeout: RELATION_TIMEOUT }, () => {
  /** Compared requests on every route that compares, drawn so that many previous ranges fall before a history. */
  const comparedRequest = (w: World) =>
    fc.oneof(
      summaryRequest(w).filter(comparing),
      timeseriesRequest(w).filter(comparing),
      breakdownRequest(w, { compare: comparingArbitrary }),
      searchSummaryRequest(w).filter(comparing),
      changesRequest(w),
    );

  it('holds on every compared route: summary, timeseries, breakdown, search summary, insights/changes', async () => {
    const w = world();
    await holds(comparedRequest(w), async (request) => {
      const { status, body } = await w.rest(request);
      if (request.route === 'changes') return assertChangesCoverage(w, request, status, body);
      check('a valid request is answered', request, 'REST').equal('status', status, 200);
      const named = unavailableNames(body);
      const previous = body.period.previous;
      if (request.route !== 'searchSummary') {
        assertCoverage(request, 'REST', 'analytics', coverageOf(w, request.project, 'analytics', previous), comparedFigures(request, body), named('analytics'));
        return;
      }
      const engines = Object.keys(body.byProvider);
      const coverage = Object.fromEntries(engines.map((e) => [e, coverageOf(w, request.project, e as 'engine1' | 'engine2', previous)]));
      for (const engine of engines) {
        const figures = Object.entries(body.byProvider[engine] as Record<string, Compared | null>).filter((e): e is [string, Compared] => e[1] !== null);
        assertCoverage(request, 'REST', engine, coverage[engine]!, figures, named(engine));
      }
      const c = check(COVERAGE_RELATION, request, 'REST');
      if (engines.some((e) => coverage[e] === 'uncovered')) {
        // Like for like or nothing: the combined totals never add a missing engine as 0.
        for (const name of ['clicks', 'impressions']) {
          const covered = engines.filter((e) => coverage[e] === 'covered').reduce((sum, e) => sum + (body.byProvider[e][name].previous as number), 0);
          c.that(`totals.${name}.previous is null or the covered engines' alone`, body.totals[name].previous === null || body.totals[name].previous === covered, JSON.stringify(body.totals[name]));
        }
      }
    }, 60);
  });
});

/** insights/changes: an uncovered analytics range is refused (400 on compare) or null; search engines as above. */
function assertChangesCoverage(w: World, request: ApiRequest, status: number, body: any): void {
  const c = check(COVERAGE_RELATION, request, 'REST');
  const search = ['clicks', 'impressions', 'ctr', 'position'].includes(request.params.metric!);
  if (!search) {
    if (status === 400 && body.param === 'compare') {
      const previous = /comparison range (\d{4}-\d{2}-\d{2})/.exec(body.detail)?.[1];
      c.that('a comparison refused as not covered is really not covered', previous !== undefined && coverageOf(w, request.project, 'analytics', { start: previous }) !== 'covered', body.detail);
      return;
    }
    c.equal('status', status, 200);
    const coverage = coverageOf(w, request.project, 'analytics', body.period.previous);
    assertCoverage(request, 'REST', 'analytics', coverage, [['change', body.change]], unavailableNames(body)('analytics'));
    return;
  }
  c.equal('status', status, 200);
  const sp = request.params.sp ?? 'all';
  const asked = sp === 'all' ? w.engines[request.project]! : [sp as 'engine1' | 'engine2'];
  // engine2's site traffic has no position: a position change is engine1's alone.
  const engines = request.params.metric === 'position' ? asked.filter((e) => e === 'engine1') : asked;
  const named = unavailableNames(body);
  for (const engine of engines) {
    const coverage = coverageOf(w, request.project, engine, body.period.previous);
    const driver = (body.drivers as { dimension: string; value: string; previous: number | null }[]).find((d) => d.dimension === 'engine' && d.value === engine);
    if (coverage === 'uncovered') {
      c.that(`a comparison_unavailable warning names ${engine}`, named(engine), JSON.stringify(body.meta.warnings));
      c.that(`the driver engine=${engine} does not count the missing range as 0`, driver === undefined || driver.previous === null, JSON.stringify(driver));
      if (engines.length === 1) c.equal('change.previous', body.change.previous, null);
    }
    if (coverage === 'covered') c.that(`no comparison_unavailable warning names ${engine}, whose history covers the range`, !named(engine));
  }
  if (engines.every((e) => coverageOf(w, request.project, e, body.period.previous) === 'covered')) c.that('change.previous is a number', typeof body.change.previous === 'number', JSON.stringify(body.change));
}
