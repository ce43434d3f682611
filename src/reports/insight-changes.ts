// Change explanation: a metric's change between the period and its comparison range, decomposed by the
// dimensions that explain it and ranked by |contribution| (domain/insights). Analytics metrics: one
// batchRunReports call for the total and the four dimensions (each request carries both date ranges), then one
// more for the 2-D breakdowns the echo test needs. Search metrics: engine1 by query, page, country and device,
// and the engines against each other.
import { compared, type Compared } from '../domain/compare.ts';
import { withComparisonRange, type ReportRequest, type ValueList } from '../domain/comparison-request.ts';
import type { SegmentFigures } from '../domain/insights/decompose.ts';
import { indexDimension, type DimensionIndex, type DriverIndex } from '../domain/insights/dimension-index.ts';
import { markSignificance, rankDrivers, strongestDistinct, type DimensionSummary, type Driver, type MetricKind } from '../domain/insights/drivers.ts';
import type { PeriodJson } from '../domain/period.ts';
import { invalidParameter } from '../errors/app-error.ts';
import { createTimeSlice } from '../limits/event-loop-slice.ts';
import type { ReportDeps } from './report-deps.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import { requireSource } from './project-lookup.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import { buildMeta, type Meta } from './meta.ts';
import { analyticsReportPolicy } from '../cache/upstream-policy.ts';
import type { AnalyticsReport } from '../providers/analytics/normalize.ts';
import { rangeOf, toAnalyticsRequest, CURRENT_RANGE, PREVIOUS_RANGE } from '../providers/analytics/translate.ts';
import { analyticsFields } from './analytics-fields.ts';
import { analyticsCoverage, requestableRange } from './comparison-history.ts';
import { isSearchMetric, planMetric, toSegments, type AnalyticsMetricPlan, type ChangeInputs } from './insight-metrics.ts';
import { searchChangeSegments } from './insight-search-changes.ts';
import { resolveReportScope, type ReportScope, type PeriodArgs } from './report-context.ts';

export interface ChangesArgs extends PeriodArgs {
  metric?: string | null;
  sp?: string | null;
}

/** The public analytics dimensions a change is explained by. */
export const ANALYTICS_CHANGE_DIMENSIONS = ['sessionDefaultChannelGroup', 'country', 'deviceCategory', 'landingPage'] as const;
/** Drivers listed per dimension and in all: the answer stays around 2k tokens as text. */
const DRIVERS_PER_DIMENSION = 5;
const MAX_DRIVERS = 12;
/** Rows read per dimension; values beyond them are summed into the dimension's `unlisted` part. */
const ROWS_PER_DIMENSION = 1000;

export interface DriverJson {
  dimension: string;
  value: string;
  contribution: number;
  share: number | null;
  current: number | null;
  previous: number | null;
  significant: boolean;
  reason?: string;
  echoOf?: { dimension: string; value: string };
  mix?: number;
  rate?: number;
}

export interface ChangeExplanation {
  project: string;
  period: PeriodJson;
  metric: string;
  /** additive (a count: contributions are the segments' own changes) or ratio (mix + rate effects). */
  kind: string;
  sp?: string;
  change: Compared;
  drivers: DriverJson[];
  dimensions: DimensionSummary[];
  meta: Meta;
}


export async function explainChange(ctx: ReportDeps, args: ChangesArgs): Promise<ChangeExplanation> {
  const search = isSearchMetric(args.metric);
  const scope = await resolveReportScope(ctx, args, 'previous', search ? 'project' : 'analytics');
  if (!scope.previous) throw invalidParameter('compare', 'A change needs a comparison: use compare=previous or compare=year.');
  let plan;
  let inputs: ChangeInputs;
  if (search) {
    plan = planMetric(args.metric, undefined);
    if (plan.source !== 'search') throw new Error('unreachable');
    inputs = await searchChangeSegments(ctx, scope, plan, args.sp);
  } else {
    const source = await requireSource(ctx, scope.project, 'analytics');
    const fields = await analyticsFields(ctx, source);
    plan = planMetric(args.metric, fields);
    if (plan.source !== 'analytics') throw new Error('unreachable');
    inputs = await analyticsChangeSegments(ctx, scope, source, plan);
  }
  const round = rounder(plan.kind);
  const value = (p: { num: number; den: number }) => (plan.kind === 'ratio' ? (p.den > 0 ? p.num / p.den : 0) : p.num);
  const { current, previous } = inputs.total;
  const change = compared(round(value(current)), previous === null ? null : round(value(previous)));
  // A rate over nothing (no impressions, no sessions) is answered as 0 but is not a weighted mean of segments: a
  // change to or from it cannot be split into drivers that add up, so none are given, and the answer says why.
  const unsplittable = previous !== null && plan.kind === 'ratio' && (current.den <= 0 || previous.den <= 0);
  const { drivers, dimensions } = previous === null || unsplittable ? { drivers: [], dimensions: [] } : await explainDelta(plan.kind, value(current) - value(previous), inputs);
  const splitWarnings = unsplittable ? [{ code: 'not_split', message: `${plan.metric} is a rate, and ${current.den <= 0 ? 'the period' : 'the comparison range'} has nothing it is a rate of, so its change is not split into drivers.` }] : [];
  return {
    project: scope.project.key,
    period: scope.periodJson,
    metric: plan.metric,
    kind: plan.kind,
    ...(inputs.sp ? { sp: inputs.sp } : {}),
    change,
    drivers: drivers.map((d) => toDriverJson(d, round)),
    dimensions: dimensions.map((d) => ({ ...d, delta: round(d.delta), unlisted: round(d.unlisted) })),
    meta: buildMeta({
      results: inputs.results,
      sources: inputs.sources,
      warnings: [...scope.warnings, ...inputs.warnings, ...splitWarnings],
      now: scope.now,
      ...(search ? {} : { zone: scope.timezone }),
      ...(inputs.dataThrough ? { dataThrough: inputs.dataThrough } : {}),
    }),
  };
}

/** The drivers of a change that could be compared: ranked, then marked significant or not (with the echo test). */
async function explainDelta(kind: MetricKind, totalDelta: number, inputs: ChangeInputs): Promise<{ drivers: Driver[]; dimensions: DimensionSummary[] }> {
  // A search dimension can hold tens of thousands of values: each is indexed in a slice of its own.
  const slice = createTimeSlice();
  const indexed: DimensionIndex[] = [];
  for (const dimension of inputs.dimensions) {
    await slice.pause();
    indexed.push(indexDimension(kind, dimension));
  }
  await slice.pause();
  const index: DriverIndex = { kind, dimensions: indexed };
  const ranked = rankDrivers(index, totalDelta, { perDimension: DRIVERS_PER_DIMENSION, max: MAX_DRIVERS });
  const reference = strongestDistinct(index, ranked.drivers);
  const inside = reference ? await inputs.inside(reference) : [];
  return { drivers: markSignificance(index, ranked.drivers, reference, inside), dimensions: ranked.dimensions };
}

function toDriverJson(d: Driver, round: (value: number) => number): DriverJson {
  return {
    dimension: d.dimension,
    value: d.value,
    contribution: round(d.contribution),
    share: d.share === null ? null : Math.round(d.share * 10_000) / 10_000,
    current: d.current === null ? null : round(d.current),
    previous: d.previous === null ? null : round(d.previous),
    significant: d.significant,
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.echoOf ? { echoOf: d.echoOf } : {}),
    ...(d.mix !== undefined ? { mix: round(d.mix) } : {}),
    ...(d.rate !== undefined ? { rate: round(d.rate) } : {}),
  };
}

/** Ratios (fractions, positions) to 6 decimals, counts to 2: below that it is floating-point dust. */
function rounder(kind: string): (value: number) => number {
  const f = kind === 'ratio' ? 1e6 : 100;
  return (value) => {
    const r = Math.round(value * f) / f;
    return Object.is(r, -0) ? 0 : r;
  };
}

/**
 * Total and four dimensions in one batch (both ranges in every request); the 2-D echo breakdowns in a second. A
 * comparison range the property's history does not reach gives no previous at all (never 0s) and its warning.
 */
async function analyticsChangeSegments(ctx: ReportDeps, scope: ReportScope, source: ConnectedSource, plan: AnalyticsMetricPlan): Promise<ChangeInputs> {
  const policy = analyticsReportPolicy(scope.period.end, scope.timezone, scope.now);
  const request = (dimensions: string[], only: ValueList[] = []): ReportRequest =>
    withComparisonRange({ range: scope.period, dimensions, metrics: plan.fetch, only, ...(dimensions.length ? { limit: ROWS_PER_DIMENSION } : {}) }, requestableRange(scope.previous));
  const report = (r: ReportRequest, extra: { metricAggregations?: string[] } = {}) => ctx.loaders.analytics.report(source, toAnalyticsRequest(r, extra), policy, scope.force);
  // The first dimension's request also asks for the TOTAL row, so the total costs no fifth report and the
  // four dimensions with the history probe still leave in one batchRunReports call (≤ 5 reports).
  const [coverage, ...byDimension] = await Promise.all([
    analyticsCoverage(ctx, source, scope, policy),
    ...ANALYTICS_CHANGE_DIMENSIONS.map((d, i) => report(request([d]), i === 0 ? { metricAggregations: ['TOTAL'] } : {})),
  ]);
  const total = byDimension[0]!;
  const additive = plan.kind === 'additive';
  const results: CachedResult<unknown>[] = [...byDimension, ...coverage.results];
  const warnings = [...coverage.warnings, ...byDimension.flatMap((r) => r.value.warnings)];
  const current = totalOf(total.value, CURRENT_RANGE, plan);
  if (!coverage.covered) return { total: { current, previous: null }, dimensions: [], results, warnings, sources: ['analytics'], inside: async () => [] };
  const dimensions = ANALYTICS_CHANGE_DIMENSIONS.map((dimension, i) => ({ dimension, segments: segmentsOf(byDimension[i]!.value, dimension, plan, additive) }));
  return {
    total: { current, previous: totalOf(total.value, PREVIOUS_RANGE, plan) },
    dimensions,
    results,
    warnings,
    sources: ['analytics'],
    async inside(reference) {
      const others = ANALYTICS_CHANGE_DIMENSIONS.filter((d) => d !== reference.dimension);
      const segment: ValueList = { dimension: reference.dimension, values: [reference.value] };
      const reports = await Promise.all(others.map((d) => report(request([reference.dimension, d], [segment]))));
      results.push(...reports);
      return others.map((dimension, i) => ({ dimension, segments: segmentsOf(reports[i]!.value, dimension, plan, additive) }));
    },
  };
}

function partsIn(report: AnalyticsReport, range: string, dimension: string, plan: AnalyticsMetricPlan): Map<string, { num: number; den: number }> {
  const out = new Map<string, { num: number; den: number }>();
  for (const row of report.rows) {
    if (rangeOf(row) !== range) continue;
    const key = row.dimensions[dimension] ?? '';
    const parts = plan.parts(row.metrics);
    const seen = out.get(key);
    out.set(key, seen ? { num: seen.num + parts.num, den: seen.den + parts.den } : parts);
  }
  return out;
}

function segmentsOf(report: AnalyticsReport, dimension: string, plan: AnalyticsMetricPlan, additive: boolean): SegmentFigures[] {
  return toSegments(partsIn(report, CURRENT_RANGE, dimension, plan), partsIn(report, PREVIOUS_RANGE, dimension, plan), additive);
}

/** The provider's TOTAL row of a range (not the sum of rows: users are counted once however many segments they touch). */
function totalOf(report: AnalyticsReport, range: string, plan: AnalyticsMetricPlan): { num: number; den: number } {
  const row = report.totals.find((r) => rangeOf(r) === range);
  if (!row) return { num: 0, den: plan.kind === 'additive' ? 1 : 0 };
  const parts = plan.parts(row.metrics);
  return plan.kind === 'additive' ? { num: parts.num, den: 1 } : parts;
}
