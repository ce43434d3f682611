// Anomalies: days of a metric's series that break its own weekday pattern (domain/insights/anomalies.ts), in the
// total and in the largest segments of each dimension (a country losing 40% can hide in the total's noise), each
// with the segments that moved most that day. Days the provider may still revise are never reported. Analytics:
// one batchRunReports call (the series and three 2-D series by date); search: engine1 daily rows.
import { addDays, eachDay, type DateRange } from '../domain/calendar.ts';
import { todayInZone } from '../domain/time-zone.ts';
import { decideCoverage, engine1History, type History } from '../domain/history.ts';
import { DAILY, HOURLY, findAnomalies, expectedAt, type AnomalyOptions, type SeriesPoint } from '../domain/insights/anomalies.ts';
import type { PeriodJson } from '../domain/period.ts';
import { quoteInput } from '../domain/quote.ts';
import { hourKeyAt } from '../domain/hours.ts';
import { invalidParameter } from '../errors/app-error.ts';
import { createTimeSlice, forEachSliced } from '../limits/event-loop-slice.ts';
import { normaliseSearchKey } from '../domain/search-normalise.ts';
import type { ReportDeps } from './report-deps.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import { requireSource } from './project-lookup.ts';
import { buildMeta, type Meta, type Warning } from './meta.ts';
import { analyticsReportPolicy, firstProcessingDay, reportPolicy } from '../cache/upstream-policy.ts';
import { toDimensions, toMetrics } from '../providers/analytics/translate.ts';
import { analyticsFields } from './analytics-fields.ts';
import { probeAnalyticsHistory } from './comparison-history.ts';
import { isSearchMetric, planMetric, type MetricPlan } from './insight-metrics.ts';
import { resolveReportScope, type PeriodArgs, type ReportScope } from './report-context.ts';
import { engine1Freshness, resolveSearchSources } from './search-sources.ts';

export interface AnomalyArgs extends PeriodArgs {
  metric?: string | null;
  interval?: string | null;
}

export interface AnomalyDriver {
  dimension: string;
  value: string;
  observed: number;
  expected: number;
  /** observed − expected of this segment that day. */
  contribution: number;
}

export interface AnomalyJson {
  date: string;
  /** interval=hour: the hour (ISO-8601 with the project zone's offset). */
  hour?: string;
  observed: number;
  expected: number;
  score: number;
  direction: 'up' | 'down';
  kind: 'spike' | 'shift';
  /** Days the series stayed off (a shift lasts several). */
  days: number;
  /** Set when the anomaly is in one segment's series rather than the total's. */
  segment?: { dimension: string; value: string };
  drivers: AnomalyDriver[];
}

export interface AnomalyReport {
  project: string;
  period: PeriodJson;
  metric: string;
  /** How a day's expected value is made, in words. */
  baseline: string;
  anomalies: AnomalyJson[];
  meta: Meta;
}

export const ANALYTICS_ANOMALY_DIMENSIONS = ['sessionDefaultChannelGroup', 'country', 'deviceCategory'] as const;
export const SEARCH_ANOMALY_DIMENSIONS = ['country', 'device'] as const;
/** Segments of each dimension watched on their own: the largest ones, with enough volume to have a pattern. */
const SEGMENTS_PER_DIMENSION = 10;
const MIN_SEGMENT_DAILY = 20;
const DRIVERS_PER_ANOMALY = 3;
const HISTORY_DAYS = DAILY.season * DAILY.cycles;
/** Segment series are noisier and many: a stricter bar keeps false alarms to about one per quarter. */
const SEGMENT_STRICTNESS = { threshold: 5, runThreshold: 3, minDeviation: 0.25 };
const RATIO_DEVIATION = 0.1;
const MAX_ANOMALIES = 20;
const SHIFT_DAYS = 3;

type DaySeries = Map<string, { num: number; den: number }>;
interface SeriesSet {
  /** How far back the provider's data reaches: days before it are no baseline and are not judged. */
  history: History;
  total: DaySeries;
  byDimension: Map<string, Map<string, DaySeries>>;
  lastComplete: string;
  results: CachedResult<unknown>[];
  warnings: Warning[];
  sources: string[];
  dataThrough?: string;
}

export async function findMetricAnomalies(ctx: ReportDeps, args: AnomalyArgs): Promise<AnomalyReport> {
  const search = isSearchMetric(args.metric);
  const interval = args.interval ?? 'day';
  if (interval === 'hour') {
    if (!search) throw invalidParameter('interval', 'Hourly anomalies read engine1\'s hourly data: use metric=clicks, impressions, ctr or position with interval=hour.');
    return hourlyAnomalies(ctx, args);
  }
  if (interval !== 'day' && interval !== '') throw invalidParameter('interval', `Invalid interval ${quoteInput(interval)} for anomalies: expected day (default) or hour.`);
  const scope = await resolveReportScope(ctx, { ...args, period: args.period ?? '90days', compare: args.compare ?? 'none' }, 'none', search ? 'project' : 'analytics');
  const history: DateRange = { start: addDays(scope.period.start, -HISTORY_DAYS), end: scope.period.end };
  let plan: MetricPlan;
  let series: SeriesSet;
  if (search) {
    plan = planMetric(args.metric, undefined);
    series = await searchSeries(ctx, scope, history, plan);
  } else {
    const source = await requireSource(ctx, scope.project, 'analytics');
    plan = planMetric(args.metric, await analyticsFields(ctx, source));
    series = await analyticsSeries(ctx, scope, source, history, plan);
  }
  const days = eachDay(history);
  const ratio = plan.kind === 'ratio';
  const valueOf = (s: DaySeries, day: string) => {
    const p = s.get(day);
    return p ? (ratio ? (p.den > 0 ? p.num / p.den : 0) : p.num) : 0;
  };
  const baseline = baselineCoverage(series.history, { start: history.start, end: addDays(scope.period.start, -1) });
  // A day the provider has no data for is unknown, not 0: like a day it may still revise, it is neither judged nor a baseline.
  const unknown = (day: string) => day > series.lastComplete || baseline.before === undefined || day < baseline.before;
  const pointsOf = (s: DaySeries): SeriesPoint[] => days.map((day) => ({ key: day, value: valueOf(s, day), incomplete: unknown(day) }));
  const base: AnomalyOptions = { ...DAILY, from: HISTORY_DAYS, ...(ratio ? { scale: 'linear', minDeviation: RATIO_DEVIATION } : {}) };
  const segments = [...series.byDimension].flatMap(([dimension, values]) => [...values].map(([value, s]) => ({ dimension, value, points: pointsOf(s) })));
  const driversOn = (index: number, exclude?: { dimension: string; value: string }): AnomalyDriver[] =>
    segments
      .filter((s) => !(exclude && s.dimension === exclude.dimension && s.value === exclude.value))
      .map((s) => {
        const expected = expectedAt(s.points, index, base) ?? 0;
        const observed = s.points[index]!.value;
        return { dimension: s.dimension, value: s.value, observed: round(observed), expected: round(expected), contribution: round(observed - expected) };
      })
      .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
      .slice(0, DRIVERS_PER_ANOMALY);

  const anomalies: AnomalyJson[] = findAnomalies(pointsOf(series.total), base).map((a) => ({
    date: a.key,
    observed: round(a.observed),
    expected: round(a.expected),
    score: a.score,
    direction: a.direction,
    kind: a.kind,
    days: a.length,
    drivers: ratio ? [] : driversOn(a.index),
  }));
  // A day off in several segments is reported once, for the segment furthest off its own pattern.
  const seen = new Set(anomalies.map((a) => a.date));
  const inSegments = (ratio ? [] : segments)
    .flatMap((s) => findAnomalies(s.points, { ...base, ...SEGMENT_STRICTNESS }).map((a) => ({ a, segment: { dimension: s.dimension, value: s.value } })))
    .sort((x, y) => Math.abs(y.a.score) - Math.abs(x.a.score));
  for (const { a, segment } of inSegments) {
    if (seen.has(a.key)) continue;
    seen.add(a.key);
    const own = { ...segment, observed: round(a.observed), expected: round(a.expected), contribution: round(a.observed - a.expected) };
    anomalies.push({ date: a.key, observed: own.observed, expected: own.expected, score: a.score, direction: a.direction, kind: a.kind, days: a.length, segment, drivers: [own, ...driversOn(a.index, segment).slice(0, DRIVERS_PER_ANOMALY - 1)] });
  }
  anomalies.sort((a, b) => Math.abs(b.score) - Math.abs(a.score));
  return {
    project: scope.project.key,
    period: scope.periodJson,
    metric: plan.metric,
    baseline: `expected = median of the same weekday over the ${DAILY.cycles} weeks before; score = log(observed/expected) in robust spreads (1.4826 × MAD over the previous ${HISTORY_DAYS} days); a spike is |score| ≥ ${DAILY.threshold}, a shift ${SHIFT_DAYS} or more days in a row at |score| ≥ ${DAILY.runThreshold}; at least ${DAILY.minDeviation * 100}% off for the total, ${SEGMENT_STRICTNESS.minDeviation * 100}% for a segment${series.lastComplete < scope.period.end ? `; days after ${series.lastComplete} are not judged (the provider may still revise them)` : ''}`,
    anomalies: anomalies.slice(0, MAX_ANOMALIES).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
    meta: buildMeta({ results: series.results, sources: series.sources, warnings: [...scope.warnings, ...series.warnings, ...baseline.warnings], now: scope.now, ...(search ? {} : { zone: scope.timezone }), ...(series.dataThrough ? { dataThrough: series.dataThrough } : {}) }),
  };
}

/** Whether the provider's history reaches the baseline before the period; `before`: its first day (none: no data). */
function baselineCoverage(history: History, range: DateRange): { before: string | undefined; warnings: Warning[] } {
  const consequence = history.firstDay === undefined ? 'no day is judged, none is counted as 0' : `days before ${history.firstDay} are no baseline and are not judged, never counted as 0`;
  return { before: history.firstDay, warnings: [...decideCoverage([history], range, { consequence }).warnings] };
}

async function analyticsSeries(ctx: ReportDeps, scope: ReportScope, source: Awaited<ReturnType<typeof requireSource>>, history: DateRange, plan: MetricPlan): Promise<SeriesSet> {
  if (plan.source !== 'analytics') throw new Error('unreachable');
  const policy = analyticsReportPolicy(history.end, scope.timezone, scope.now);
  const report = (dimensions: string[]) =>
    ctx.loaders.analytics.report(source, { dateRanges: [{ startDate: history.start, endDate: history.end }], dimensions: toDimensions(dimensions), metrics: toMetrics(plan.fetch), limit: '100000' }, policy, scope.force);
  // The history probe leaves in the same batch as the four series (five reports, one call).
  const [probe, total, ...split] = await Promise.all([probeAnalyticsHistory(ctx, source, history, policy, scope.force), report(['date']), ...ANALYTICS_ANOMALY_DIMENSIONS.map((d) => report(['date', d]))]);
  // Date × segment rows run to tens of thousands over a year: read in slices, so other requests are answered meanwhile.
  const slice = createTimeSlice();
  const byDimension = new Map<string, Map<string, DaySeries>>();
  for (const [i, dimension] of ANALYTICS_ANOMALY_DIMENSIONS.entries()) {
    const values = new Map<string, DaySeries>();
    await forEachSliced(split[i]!.value.rows, (row) => add(values, row.dimensions[dimension] ?? '', gaDate(row.dimensions.date ?? ''), plan.parts(row.metrics)), slice);
    byDimension.set(dimension, largest(values));
  }
  const totalSeries: DaySeries = new Map();
  for (const row of total.value.rows) addDay(totalSeries, gaDate(row.dimensions.date ?? ''), plan.parts(row.metrics));
  const processing = firstProcessingDay(scope.timezone, scope.now);
  return { history: probe.history, total: totalSeries, byDimension, lastComplete: addDays(processing, -1), results: [total, ...split, probe.result], warnings: [...total.value.warnings], sources: ['analytics'] };
}

async function searchSeries(ctx: ReportDeps, scope: ReportScope, history: DateRange, plan: MetricPlan): Promise<SeriesSet> {
  if (plan.source !== 'search') throw new Error('unreachable');
  const { connected, warnings } = await resolveSearchSources(ctx, scope.project, 'engine1');
  const cs = connected.engine1!;
  const policy = reportPolicy(history.end, scope.project.timezone, scope.now);
  const ask = (dimensions: string[]) => ctx.loaders.engine1.query(cs, { startDate: history.start, endDate: history.end, dimensions, rowLimit: 25_000 }, policy, scope.force);
  const [total, ...split] = await Promise.all([ask(['date']), ...SEARCH_ANOMALY_DIMENSIONS.map((d) => ask(['date', d]))]);
  const slice = createTimeSlice();
  const byDimension = new Map<string, Map<string, DaySeries>>();
  for (const [i, dimension] of SEARCH_ANOMALY_DIMENSIONS.entries()) {
    const values = new Map<string, DaySeries>();
    await forEachSliced(split[i]!.value.rows, (row) => add(values, normaliseSearchKey(dimension, row.keys[dimension] ?? ''), row.keys.date ?? '', plan.parts(row)), slice);
    byDimension.set(dimension, largest(values));
  }
  const totalSeries: DaySeries = new Map();
  for (const row of total.value.rows) addDay(totalSeries, row.keys.date ?? '', plan.parts(row));
  const freshness = engine1Freshness(scope.period, total.value.firstIncompleteDate, total.value.dataThrough);
  const lastComplete = total.value.firstIncompleteDate ? addDays(total.value.firstIncompleteDate, -1) : (total.value.dataThrough ?? history.end);
  return { history: engine1History(scope.now), total: totalSeries, byDimension, lastComplete, results: [total, ...split], warnings: [...warnings, ...freshness.warnings], sources: ['engine1'], dataThrough: freshness.dataThrough };
}

function gaDate(ymd: string): string {
  return ymd.length === 8 ? `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}` : ymd;
}

function addDay(series: DaySeries, day: string, parts: { num: number; den: number }): void {
  const seen = series.get(day);
  series.set(day, seen ? { num: seen.num + parts.num, den: seen.den + parts.den } : { ...parts });
}

function add(values: Map<string, DaySeries>, value: string, day: string, parts: { num: number; den: number }): void {
  let series = values.get(value);
  if (!series) values.set(value, (series = new Map()));
  addDay(series, day, parts);
}

/** The segments with the most volume (by denominator for ratios, by value for counts), enough to have a pattern. */
function largest(values: Map<string, DaySeries>): Map<string, DaySeries> {
  const volume = (s: DaySeries) => [...s.values()].reduce((a, p) => a + (p.den === 1 ? p.num : p.den), 0) / Math.max(1, s.size);
  const ranked = [...values].filter(([, s]) => volume(s) >= MIN_SEGMENT_DAILY).sort((a, b) => volume(b[1]) - volume(a[1]));
  return new Map(ranked.slice(0, SEGMENTS_PER_DIMENSION));
}

function round(value: number): number {
  return Number.parseFloat(value.toPrecision(6));
}

/** engine1 keeps hourly data for 10 days: the last 3 days (after 7 of history) are judged, hour by hour. */
const HOURLY_WINDOW_DAYS = 10;

async function hourlyAnomalies(ctx: ReportDeps, args: AnomalyArgs): Promise<AnomalyReport> {
  const scope = await resolveReportScope(ctx, { ...args, period: args.period ?? '7days', compare: 'none' }, 'none');
  const plan = planMetric(args.metric, undefined);
  const { connected, warnings } = await resolveSearchSources(ctx, scope.project, 'engine1');
  const today = todayInZone(scope.project.timezone, scope.now);
  const request = { startDate: addDays(today, -HOURLY_WINDOW_DAYS), endDate: today, dimensions: ['hour'], dataState: 'hourly_all', rowLimit: 25_000 };
  const result = await ctx.loaders.engine1.query(connected.engine1!, request, reportPolicy(today, scope.project.timezone, scope.now), scope.force);
  const byHour = new Map<string, { num: number; den: number }>();
  for (const row of result.value.rows) {
    const instant = Date.parse(row.keys.hour ?? '');
    if (Number.isNaN(instant)) continue;
    addDay(byHour, hourKeyAt(instant, scope.project.timezone), plan.parts(row));
  }
  const hours = [...byHour.keys()].sort();
  const incompleteFrom = result.value.firstIncompleteHour ? hourKeyAt(Date.parse(result.value.firstIncompleteHour), scope.project.timezone) : undefined;
  const ratio = plan.kind === 'ratio';
  const points: SeriesPoint[] = hours.map((hour) => {
    const p = byHour.get(hour)!;
    return { key: hour, value: ratio ? (p.den > 0 ? p.num / p.den : 0) : p.num, incomplete: incompleteFrom !== undefined && hour >= incompleteFrom };
  });
  const inPeriod = (hour: string) => hour.slice(0, 10) >= scope.period.start && hour.slice(0, 10) <= scope.period.end;
  const from = Math.max(HOURLY.season * HOURLY.cycles, points.findIndex((p) => inPeriod(p.key)));
  const anomalies: AnomalyJson[] = findAnomalies(points, { ...HOURLY, from, ...(ratio ? { scale: 'linear', minDeviation: RATIO_DEVIATION } : {}) })
    .filter((a) => inPeriod(a.key))
    .map((a) => ({ date: a.key.slice(0, 10), hour: a.key, observed: round(a.observed), expected: round(a.expected), score: a.score, direction: a.direction, kind: a.kind, days: a.length, drivers: [] }));
  if (incompleteFrom) warnings.push({ code: 'incomplete_data', message: `engine1 hourly data from ${incompleteFrom} on is still being completed; those hours are not judged.` });
  return {
    project: scope.project.key,
    period: scope.periodJson,
    metric: plan.metric,
    baseline: `median of the same hour over the ${HOURLY.cycles} days before; score = log(observed/expected) in robust spreads; |score| ≥ ${HOURLY.threshold} and ≥ ${HOURLY.minDeviation * 100}% off; engine1 keeps hourly data for ${HOURLY_WINDOW_DAYS} days, so only hours from ${points[from]?.key.slice(0, 10) ?? today} on can be judged`,
    anomalies: anomalies.slice(0, MAX_ANOMALIES),
    meta: buildMeta({ results: [result], sources: ['engine1'], warnings: [...scope.warnings, ...warnings], now: scope.now }),
  };
}
