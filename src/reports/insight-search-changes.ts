// The segments of a search metric's change: engine1 by query, page, country and device (one request per
// dimension and range, through the engine1 loader), and the engines against each other (engine2's daily site
// traffic, which has no position). Totals are engine1's device rows (every impression has a device) plus engine2,
// over the engines whose history covers the comparison range.
import type { DateRange } from '../domain/calendar.ts';
import { SEARCH_METRIC_NAMES, type SearchDimension } from '../domain/catalogue.ts';
import { comparisonRequest, type ReportRequest } from '../domain/comparison-request.ts';
import type { SearchSource } from '../domain/sources.ts';
import { normaliseSearchKey } from '../domain/search-normalise.ts';
import type { DimensionSegments } from '../domain/insights/drivers.ts';
import { createTimeSlice, forEachSliced, type TimeSlice } from '../limits/event-loop-slice.ts';
import type { ReportDeps } from './report-deps.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import type { Warning } from './meta.ts';
import { reportPolicy } from '../cache/upstream-policy.ts';
import type { SearchRow } from '../providers/engine1/normalize.ts';
import { toEngine1Request } from '../providers/engine1/search-request.ts';
import { searchCoverage } from './comparison-history.ts';
import { toSegments, type SearchMetricPlan } from './insight-metrics.ts';
import type { ChangeInputs } from './insight-metrics.ts';
import type { ReportScope } from './report-context.ts';
import { withinRange } from './search-engine2.ts';
import { engine1Freshness, resolveSearchSources, settleEngines, sourcesUsed } from './search-sources.ts';

export const SEARCH_CHANGE_DIMENSIONS = ['query', 'page', 'country', 'device'] as const;
const ROW_LIMIT = 25_000;

type Parts = Map<string, { num: number; den: number }>;

/**
 * Like for like: only the engines whose history covers the comparison range are compared (their segments, their
 * totals, the engine dimension when more than one is); an engine that does not is left out and named in a
 * comparison_unavailable warning, never counted as 0. No engine covering the range: no previous at all.
 */
export async function searchChangeSegments(ctx: ReportDeps, scope: ReportScope, plan: SearchMetricPlan, sp: string | null | undefined): Promise<ChangeInputs> {
  const { choice, connected, warnings: sourceWarnings } = await resolveSearchSources(ctx, scope.project, sp);
  const previous = scope.previous!;
  const policy = reportPolicy(scope.period.end, scope.project.timezone, scope.now);
  const warnings: Warning[] = [...sourceWarnings];
  const e1 = connected.engine1 ? engine1Dimensions(ctx, connected.engine1, scope, previous, policy) : undefined;
  const e2 = connected.engine2 ? ctx.loaders.engine2.trafficStats(connected.engine2, scope.force) : undefined;
  const [r1, r2] = await settleEngines(choice, e1, e2, warnings);
  const additive = plan.kind === 'additive';
  const empty = { num: 0, den: additive ? 1 : 0 };
  const results: CachedResult<unknown>[] = [];
  let dataThrough: string | undefined;
  const engine2 = r2 && plan.metric === 'position' ? undefined : r2;
  if (r2 && !engine2) warnings.push({ code: 'source_left_out', message: 'engine2 site traffic has no average position; the position change is engine1\'s.' });
  const coverage = searchCoverage(scope.now, { ...(r1 ? { engine1: r1 } : {}), ...(engine2 ? { engine2: engine2.value } : {}) }, previous, 'like_for_like');
  warnings.push(...coverage.warnings);
  const compared = (engine: SearchSource) => coverage.covered.includes(engine);

  const dimensions: DimensionSegments[] = [];
  const engines: { current: Parts; previous: Parts } = { current: new Map(), previous: new Map() };
  if (r1) {
    results.push(...r1.flatMap((d) => [d.current, d.previous]));
    // Query and page rows run to tens of thousands: read in slices, so other requests are answered meanwhile.
    const slice = createTimeSlice();
    const comparing = compared('engine1');
    for (const d of r1) {
      // Only the device rows count when engine1's history does not reach the range before (its current figure).
      if (!comparing && d.dimension !== 'device') continue;
      const current = await partsOf(d.current.value.rows, d.dimension, plan, slice);
      if (d.dimension === 'device') engines.current.set('engine1', sum(current, empty));
      if (comparing) {
        const before = await partsOf(d.previous.value.rows, d.dimension, plan, slice);
        dimensions.push({ dimension: d.dimension, segments: toSegments(current, before, additive) });
        if (d.dimension === 'device') engines.previous.set('engine1', sum(before, empty));
      }
      await slice.pause();
    }
    const devices = r1.find((d) => d.dimension === 'device')!;
    const freshness = engine1Freshness(scope.period, devices.current.value.firstIncompleteDate, devices.current.value.dataThrough);
    dataThrough = freshness.dataThrough;
    warnings.push(...freshness.warnings);
  }
  if (engine2) {
    results.push(engine2);
    const of = (range: DateRange) => withinRange(engine2.value, range).reduce((acc, r) => {
      const p = plan.parts({ clicks: r.clicks, impressions: r.impressions, position: 0 });
      return { num: acc.num + p.num, den: additive ? 1 : acc.den + p.den };
    }, empty);
    engines.current.set('engine2', of(scope.period));
    if (compared('engine2')) engines.previous.set('engine2', of(previous));
  }
  // Like for like: the compared engines' current figures against their own previous ones.
  const comparable: Parts = new Map([...engines.current].filter(([engine]) => engines.previous.has(engine)));
  if (comparable.size > 1) dimensions.push({ dimension: 'engine', segments: toSegments(comparable, engines.previous, additive) });
  const none = comparable.size === 0;
  const counted = none ? engines.current : comparable;
  return {
    total: { current: sum(counted, empty), previous: none ? null : sum(engines.previous, empty) },
    dimensions,
    inside: async () => [],
    results,
    warnings,
    // The engines whose numbers the change is made of (one left out like for like is named in a warning instead).
    sources: sourcesUsed(Object.fromEntries(counted)),
    sp: choice,
    ...(dataThrough ? { dataThrough } : {}),
  };
}

/** Each dimension over the period and, with the same request moved to it, over the comparison range. */
async function engine1Dimensions(ctx: ReportDeps, cs: ConnectedSource, scope: ReportScope, previous: DateRange, policy: ReturnType<typeof reportPolicy>) {
  const ask = (request: ReportRequest) => ctx.loaders.engine1.query(cs, toEngine1Request(request), policy, scope.force);
  return Promise.all(
    SEARCH_CHANGE_DIMENSIONS.map(async (dimension) => {
      const request: ReportRequest = { range: scope.period, dimensions: [dimension], metrics: SEARCH_METRIC_NAMES, limit: ROW_LIMIT };
      const [current, before] = await Promise.all([ask(request), ask(comparisonRequest(request, previous))]);
      return { dimension, current, previous: before };
    }),
  );
}

async function partsOf(rows: readonly SearchRow[], dimension: SearchDimension, plan: SearchMetricPlan, slice: TimeSlice): Promise<Parts> {
  const out: Parts = new Map();
  await forEachSliced(rows, (row) => {
    const key = normaliseSearchKey(dimension, row.keys[dimension] ?? '');
    const p = plan.parts(row);
    const seen = out.get(key);
    out.set(key, seen ? { num: seen.num + p.num, den: seen.den + p.den } : p);
  }, slice);
  return out;
}

/** Additive parts carry den 1 each; their sum keeps den 1. */
function sum(parts: Parts, empty: { num: number; den: number }): { num: number; den: number } {
  let num = 0;
  let den = 0;
  for (const p of parts.values()) {
    num += p.num;
    den += p.den;
  }
  return parts.size === 0 ? empty : { num, den: empty.den === 1 ? 1 : den };
}
