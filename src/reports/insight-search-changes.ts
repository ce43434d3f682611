// The segments of a search metric's change: engine1 by query, page, country and device (one request per
// dimension and range, through the engine1 loader), and the engines against each other (engine2's daily site
// traffic, which has no position). Totals are engine1's device rows (every impression has a device) plus engine2.
import type { DateRange } from '../domain/calendar.ts';
import type { SearchDimension } from '../domain/catalogue.ts';
import { normaliseSearchKey } from '../domain/search-normalise.ts';
import type { DimensionSegments } from '../domain/insights/drivers.ts';
import { createTimeSlice, forEachSliced, type TimeSlice } from '../limits/event-loop-slice.ts';
import type { ReportDeps } from './report-deps.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import type { Warning } from './meta.ts';
import { reportPolicy } from '../cache/upstream-policy.ts';
import type { SearchRow } from '../providers/engine1/normalize.ts';
import { toSegments, type SearchMetricPlan } from './insight-metrics.ts';
import type { ChangeInputs } from './insight-metrics.ts';
import type { ReportScope } from './report-context.ts';
import { withinRange } from './search-engine2.ts';
import { engine1Freshness, resolveSearchSources, settleEngines, sourcesUsed } from './search-sources.ts';

export const SEARCH_CHANGE_DIMENSIONS = ['query', 'page', 'country', 'device'] as const;
const ROW_LIMIT = 25_000;

type Parts = Map<string, { num: number; den: number }>;

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
  const dimensions: DimensionSegments[] = [];
  const engines: { current: Parts; previous: Parts } = { current: new Map(), previous: new Map() };
  let dataThrough: string | undefined;
  if (r1) {
    results.push(...r1.flatMap((d) => [d.current, d.previous]));
    // Query and page rows run to tens of thousands: read in slices, so other requests are answered meanwhile.
    const slice = createTimeSlice();
    for (const d of r1) {
      const current = await partsOf(d.current.value.rows, d.dimension, plan, slice);
      const before = await partsOf(d.previous.value.rows, d.dimension, plan, slice);
      dimensions.push({ dimension: d.dimension, segments: toSegments(current, before, additive) });
      if (d.dimension === 'device') {
        engines.current.set('engine1', sum(current, empty));
        engines.previous.set('engine1', sum(before, empty));
      }
      await slice.pause();
    }
    const devices = r1.find((d) => d.dimension === 'device')!;
    const freshness = engine1Freshness(scope.period, devices.current.value.firstIncompleteDate, devices.current.value.dataThrough);
    dataThrough = freshness.dataThrough;
    warnings.push(...freshness.warnings);
  }
  if (r2 && plan.metric === 'position') {
    warnings.push({ code: 'source_left_out', message: 'engine2 site traffic has no average position; the position change is engine1\'s.' });
  } else if (r2) {
    results.push(r2);
    const of = (range: DateRange) => withinRange(r2.value, range).reduce((acc, r) => {
      const p = plan.parts({ clicks: r.clicks, impressions: r.impressions, position: 0 });
      return { num: acc.num + p.num, den: additive ? 1 : acc.den + p.den };
    }, empty);
    engines.current.set('engine2', of(scope.period));
    engines.previous.set('engine2', of(previous));
  }
  if (engines.current.size > 1) dimensions.push({ dimension: 'engine', segments: toSegments(engines.current, engines.previous, additive) });
  return {
    total: { current: sum(engines.current, empty), previous: sum(engines.previous, empty) },
    dimensions,
    inside: async () => [],
    results,
    warnings,
    sources: sourcesUsed({ ...(r1 ? { engine1: true } : {}), ...(r2 ? { engine2: true } : {}) }),
    sp: choice,
    ...(dataThrough ? { dataThrough } : {}),
  };
}

async function engine1Dimensions(ctx: ReportDeps, cs: ConnectedSource, scope: ReportScope, previous: DateRange, policy: ReturnType<typeof reportPolicy>) {
  const ask = (range: DateRange, dimension: string) => ctx.loaders.engine1.query(cs, { startDate: range.start, endDate: range.end, dimensions: [dimension], rowLimit: ROW_LIMIT }, policy, scope.force);
  return Promise.all(
    SEARCH_CHANGE_DIMENSIONS.map(async (dimension) => {
      const [current, before] = await Promise.all([ask(scope.period, dimension), ask(previous, dimension)]);
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
