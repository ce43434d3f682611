// insights/changes against the reports it reuses, for random requests on the demo projects:
// - its `change` is the summary's number for the same period, comparison and sp (site summary for analytics
//   metrics, search summary totals for search metrics; where an engine's history does not reach the comparison,
//   null or the covered engines alone, never the missing engine as 0);
// - its drivers add up: per dimension, the listed contributions plus `unlisted` are the dimension's delta, which
//   is the change's delta for dimensions that partition the total (docs/insights.md); a count's contribution is
//   current − previous, a ratio's is mix + rate, and share is contribution / delta;
// - a driver's current and previous are its segment's own numbers in the breakdown / search summary.
import { describe, it } from 'vitest';
import { changesRequest } from './support/arbitraries.ts';
import { check, holds, RATIO_TOLERANCE, type Check, RELATION_TIMEOUT } from './support/property.ts';
import { ApiRequest } from './support/request.ts';
import { useWorld, type World } from './support/world.ts';

const world = useWorld();

const SEARCH_METRICS = ['clicks', 'impressions', 'ctr', 'position'];
/** Dimensions whose segments may not cover the whole total (docs/insights.md: landing pages and queries). */
const PARTIAL_DIMENSIONS = ['landingPage', 'query', 'page'];

type Compared = { value: number; previous: number | null; delta: number | null; deltaPct: number | null };
type Driver = { dimension: string; value: string; contribution: number; share: number | null; current: number | null; previous: number | null; mix?: number; rate?: number };

const isSearch = (request: ApiRequest) => SEARCH_METRICS.includes(request.params.metric!);
/** Insights round counts to 2 decimals and ratios to 6: the tolerance one rounded figure carries. */
const roundingOf = (kind: string) => (kind === 'ratio' ? 5e-7 : 0.005);

/** The answer, or undefined when an analytics comparison is refused as not covered (the coverage relation checks that). */
async function changesOf(w: World, request: ApiRequest): Promise<any> {
  const { status, body } = await w.rest(request);
  if (status === 400 && body.param === 'compare' && !isSearch(request)) return undefined;
  check('a valid request is answered', request, 'REST').equal(`status (${JSON.stringify(body).slice(0, 300)})`, status, 200);
  return body;
}

describe("an insight's change is the summary's number for the same period and comparison", { timeout: RELATION_TIMEOUT }, () => {
  it('analytics metrics against the site summary, search metrics against the search summary totals', async () => {
    const w = world();
    await holds(changesRequest(w), async (request) => {
      const body = await changesOf(w, request);
      const { period, compare, sp } = request.params;
      const metric = request.params.metric!;
      const c = check("an insight's change is the summary's number", request, 'REST');
      if (!isSearch(request)) {
        const summary = await w.json(new ApiRequest('summary', request.project, { period, compare: compare ?? 'previous' }));
        const expected = summary.metrics[metric] as Compared;
        if (body === undefined) return c.equal(`refused as not covered, so the summary's ${metric}.previous`, expected.previous, null);
        return assertSameCompared(c, `change vs the site summary's ${metric}`, body.change, expected);
      }
      const summary = await w.json(new ApiRequest('searchSummary', request.project, { period, compare: compare ?? 'previous', sp }));
      const expected = summary.totals[metric] as Compared | null;
      // No impressions, no position: the summary has none to compare with.
      if (expected === null) return;
      if (expected.previous !== null || body.change.previous === null) return assertSameCompared(c, `change vs the search summary's totals.${metric}`, body.change, expected);
      // Not covered for every engine: a comparison like for like is allowed, a missing engine counted as 0 is not.
      const covered = likeForLike(summary, metric);
      c.that(
        `change.previous is null, or compares the covered engines alone (${JSON.stringify(covered)}); the search summary says ${JSON.stringify(expected)} with ${JSON.stringify(summary.meta.warnings.filter((x: { code: string }) => x.code === 'comparison_unavailable'))}`,
        covered !== undefined && Math.abs(body.change.previous - covered.previous) <= 1e-6 * Math.max(1, covered.previous) && Math.abs(body.change.value - covered.value) <= 1e-6 * Math.max(1, covered.value),
        JSON.stringify(body.change),
      );
    }, 30);
  });
});

describe("an insight's drivers add up to its change", { timeout: RELATION_TIMEOUT }, () => {
  it('per dimension, and per driver (contribution, share, mix + rate)', async () => {
    const w = world();
    await holds(changesRequest(w), async (request) => {
      const body = await changesOf(w, request);
      if (body === undefined || body.change.previous === null) return;
      const c = check("an insight's drivers add up to its change", request, 'REST');
      const rounding = roundingOf(body.kind);
      const drivers = body.drivers as Driver[];
      const dimensions = body.dimensions as { dimension: string; delta: number; unlisted: number }[];
      // With both engines, only `engine` splits the whole; engine1's query, page, country and device split engine1's part.
      const engine1 = dimensions.some((d) => d.dimension === 'engine') ? drivers.find((d) => d.dimension === 'engine' && d.value === 'engine1') : undefined;
      const whole = (dimension: string) => (!isSearch(request) || dimension === 'engine' || !dimensions.some((d) => d.dimension === 'engine') ? body.change.delta : body.kind === 'additive' ? engine1?.contribution : undefined);
      for (const d of dimensions) {
        const listed = drivers.filter((x) => x.dimension === d.dimension);
        const total = listed.reduce((s, x) => s + x.contribution, 0) + d.unlisted;
        c.that(`dimension ${d.dimension}: Σ contributions (${listed.length}) + unlisted = its delta`, Math.abs(total - d.delta) <= rounding * (listed.length + 2.01), `${total} vs ${d.delta}`);
        const expected = whole(d.dimension);
        if (!PARTIAL_DIMENSIONS.includes(d.dimension) && expected !== undefined) c.that(`dimension ${d.dimension}: its delta is the change's delta${expected === body.change.delta ? '' : " (engine1's part)"}`, Math.abs(d.delta - expected) <= rounding * 2.01, `${d.delta} vs ${expected}`);
      }
      for (const d of drivers) {
        const where = `driver ${d.dimension}=${d.value}`;
        if (body.kind === 'additive' && d.current !== null && d.previous !== null) c.that(`${where}: contribution = current − previous`, Math.abs(d.contribution - (d.current - d.previous)) <= rounding * 3, JSON.stringify(d));
        if (body.kind === 'ratio') c.that(`${where}: contribution = mix + rate`, Math.abs(d.contribution - ((d.mix ?? 0) + (d.rate ?? 0))) <= rounding * 3, JSON.stringify(d));
        // share is computed from unrounded figures; the answer's contribution and delta are rounded (the delta as the
        // difference of two rounded numbers, off by up to 2 roundings), so the quotient of the rounded ones carries
        // their relative errors: |share| × 2r/|delta| + r/|delta|, plus share's own 4-decimal rounding.
        if (d.share !== null && body.change.delta !== 0) {
          const tolerance = 1e-4 + (Math.abs(d.share) * 2 * rounding + rounding) / Math.abs(body.change.delta) * 1.01;
          c.that(`${where}: share = contribution / change.delta`, Math.abs(d.share - d.contribution / body.change.delta) <= tolerance, JSON.stringify(d));
        }
      }
    }, 30);
  });

  it("a driver's current and previous are its segment's numbers in the breakdown or search summary", async () => {
    const w = world();
    await holds(changesRequest(w), async (request) => {
      const body = await changesOf(w, request);
      if (body === undefined) return;
      const c = check("a driver's current and previous are its segment's own numbers", request, 'REST');
      const { period, compare, sp } = request.params;
      const metric = request.params.metric!;
      for (const d of (body.drivers as Driver[]).slice(0, 3)) {
        const where = `driver ${d.dimension}=${d.value}`;
        if (!isSearch(request)) {
          const filter = `${d.dimension}==${d.value.replace(/[\\,;]/g, (x) => `\\${x}`)}`;
          const segment = await w.json(new ApiRequest('breakdown', request.project, { dimension: d.dimension, metrics: metric, filter, period, compare: compare ?? 'previous', limit: '5' }));
          const row = (segment.rows as Record<string, Compared>[]).find((r) => String(r[d.dimension]) === d.value)?.[metric];
          c.equal(`${where}.current vs the breakdown`, d.current, row?.value ?? 0, RATIO_TOLERANCE);
          // A breakdown lists the period's rows only: a segment whose metric is 0 in the period (as GA leaves out rows
          // of zeros) has no row, and its previous number is the same breakdown over the comparison range.
          const range = body.period.previous as { start: string; end: string } | null;
          const previous =
            row !== undefined || range === null
              ? (row?.previous ?? 0)
              : (((await w.json(new ApiRequest('breakdown', request.project, { dimension: d.dimension, metrics: metric, filter, period: `custom_${range.start}_${range.end}`, compare: 'none', limit: '5' }))).rows as Record<string, number>[]).find((r) => String(r[d.dimension]) === d.value)?.[metric] ?? 0);
          c.equal(`${where}.previous vs the breakdown`, d.previous, previous, RATIO_TOLERANCE);
        } else if (d.dimension === 'engine') {
          const summary = await w.json(new ApiRequest('searchSummary', request.project, { period, compare: compare ?? 'previous', sp }));
          const own = summary.byProvider[d.value]?.[metric] as Compared | undefined;
          c.equal(`${where}.current vs the search summary's byProvider.${d.value}.${metric}`, d.current, own?.value ?? null, RATIO_TOLERANCE);
          c.equal(`${where}.previous vs the search summary's byProvider.${d.value}.${metric}`, d.previous, own?.previous ?? null, RATIO_TOLERANCE);
        }
      }
    }, 25);
  });
});

function assertSameCompared(c: Check, what: string, actual: Compared, expected: Compared): void {
  c.equal(`${what}: value`, actual.value, expected.value, RATIO_TOLERANCE);
  c.equal(`${what}: previous`, actual.previous, expected.previous, RATIO_TOLERANCE);
  c.equal(`${what}: deltaPct`, actual.deltaPct, expected.deltaPct, 2e-4);
}

/** The search summary's engines that compare (their history covers the range), combined: what "like for like" is. */
function likeForLike(summary: any, metric: string): { value: number; previous: number } | undefined {
  const covered = Object.values(summary.byProvider as Record<string, Record<string, Compared | null>>).filter((f) => f.clicks?.previous !== null && f.clicks?.previous !== undefined);
  if (covered.length === 0) return undefined;
  const total = (name: string, key: 'value' | 'previous') => covered.reduce((s, f) => s + (f[name]?.[key] ?? 0), 0);
  if (metric === 'clicks' || metric === 'impressions') return { value: total(metric, 'value'), previous: total(metric, 'previous') };
  if (metric === 'ctr') return { value: total('clicks', 'value') / total('impressions', 'value'), previous: total('clicks', 'previous') / total('impressions', 'previous') };
  const positioned = covered.filter((f) => f.position !== null);
  if (positioned.length !== 1) return undefined;
  return { value: positioned[0]!.position!.value, previous: positioned[0]!.position!.previous! };
}
