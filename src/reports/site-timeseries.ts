// Site timeseries: one metric per hour, day, week or month of the period, every bucket present (0 when empty), with
// the period total and, when comparing, the comparison range in the same buckets: day k of the comparison range
// counts in the bucket of the period's day k (domain/comparison-buckets.ts), so both sides have the period's buckets.
import { addDays, formatYmd, type IsoDate, isoWeekStart, maxDate, type DateRange } from '../domain/calendar.ts';
import { requireAvailableName, DEFAULT_TIMESERIES_METRIC } from '../domain/catalogue.ts';
import { compared, type Compared } from '../domain/compare.ts';
import { comparisonPairing, ownBucketsArePaired, pairedBucketOfDate, pairedHourBuckets, sumByBucket, type ComparisonPairing, type DayInterval } from '../domain/comparison-buckets.ts';
import { withComparisonRange } from '../domain/comparison-request.ts';
import { localHourBuckets } from '../domain/hours.ts';
import { bucketKeys, parseInterval, type Interval } from '../domain/interval.ts';
import type { PeriodJson } from '../domain/period.ts';
import type { ReportDeps } from './report-deps.ts';
import { requireSource } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import { analyticsReportPolicy } from '../cache/upstream-policy.ts';
import type { AnalyticsReport } from '../providers/analytics/normalize.ts';
import { CURRENT_RANGE, PREVIOUS_RANGE, rangeOf, toAnalyticsRequest } from '../providers/analytics/translate.ts';
import { analyticsFields } from './analytics-fields.ts';
import { analyticsCoverage, requestableRange } from './comparison-history.ts';
import { isoOfGaDate, pairedPrevious } from './site-timeseries-previous.ts';
import { resolveReportScope, type PeriodArgs } from './report-context.ts';

export interface TimeseriesArgs extends PeriodArgs {
  metric?: string | null;
  interval?: string | null;
}

export interface TimeseriesPoint {
  date?: string;
  time?: string;
  value: number | Compared;
}

export interface SiteTimeseries {
  project: string;
  period: PeriodJson;
  metric: string;
  interval: Interval;
  points: TimeseriesPoint[];
  total: number | Compared;
  meta: Meta;
}

/** The GA dimension whose values are the buckets of each interval. */
const BUCKET_DIMENSION: Record<Interval, string> = { hour: 'dateHour', day: 'date', week: 'isoYearIsoWeek', month: 'yearMonth' };

export async function siteTimeseries(ctx: ReportDeps, args: TimeseriesArgs): Promise<SiteTimeseries> {
  const scope = await resolveReportScope(ctx, args, 'none', 'analytics');
  const interval = parseInterval(args.interval ?? undefined, scope.period);
  const source = await requireSource(ctx, scope.project, 'analytics');
  const fields = await analyticsFields(ctx, source, { metrics: args.metric });
  const metric = args.metric ? requireAvailableName('metric', 'metric', args.metric, fields.metrics) : DEFAULT_TIMESERIES_METRIC;

  const policy = analyticsReportPolicy(scope.period.end, scope.timezone, scope.now);
  const dimension = BUCKET_DIMENSION[interval];
  const comparison = requestableRange(scope.previous);
  const pairing = comparison ? comparisonPairing(scope.period, comparison) : undefined;
  // When the comparison range's own hours, days or weeks are the paired buckets, one request by the bucket
  // dimension serves both ranges; otherwise the comparison is read apart, by its paired days.
  const together = pairing !== undefined && (interval === 'hour' || ownBucketsArePaired(pairing, interval));
  const totalRequest = withComparisonRange({ range: scope.period, dimensions: [], metrics: [metric] }, comparison);
  const seriesRequest = withComparisonRange({ range: scope.period, dimensions: [dimension], metrics: [metric], limit: 100_000 }, together ? comparison : undefined);
  const [series, totals, coverage, apart] = await Promise.all([
    ctx.loaders.analytics.report(source, toAnalyticsRequest(seriesRequest, { keepEmptyRows: true }), policy, scope.force),
    // Totals come from the provider: users and rates do not add up across buckets.
    ctx.loaders.analytics.report(source, toAnalyticsRequest(totalRequest), policy, scope.force),
    analyticsCoverage(ctx, source, scope, policy),
    pairing && !together && interval !== 'hour' ? pairedPrevious(ctx, source, pairing, interval, metric, policy, scope.force) : undefined,
  ]);

  // Buckets follow the zone the provider actually used (its metadata), so no hour is shifted or dropped even when
  // the property's zone changed since it was last read.
  const tz = series.value.timeZone ?? scope.timezone;
  const currentKeys = bucketKeys(scope.period, interval, tz, { now: scope.now });
  const current = sumByBucket(currentKeys, valuesOf(series.value, CURRENT_RANGE, interval, metric, ownKeyOf(interval, scope.period, tz)));
  const compareWith = coverage.covered ? pairing : undefined;
  const previous = compareWith ? (apart?.values ?? sumByBucket(currentKeys, valuesOf(series.value, PREVIOUS_RANGE, interval, metric, pairedKeyOf(compareWith, interval, tz)))) : undefined;

  const keyName = interval === 'hour' ? 'time' : 'date';
  const points = currentKeys.map((key, i) => ({ [keyName]: key, value: scope.previous ? compared(current[i]!, previous ? previous[i]! : null) : current[i]! }));
  const total = totalOf(totals.value, CURRENT_RANGE, metric);
  return {
    project: scope.project.key,
    period: scope.periodJson,
    metric,
    interval,
    points,
    total: scope.previous ? compared(total, compareWith ? totalOf(totals.value, PREVIOUS_RANGE, metric) : null) : total,
    meta: buildMeta({ results: [series, totals, ...(apart?.results ?? []), ...coverage.results], sources: ['analytics'], warnings: [...scope.warnings, ...coverage.warnings, ...[series, ...(apart?.results ?? [])].flatMap((r) => r.value.warnings)], now: scope.now, zone: scope.timezone }),
  };
}

/** Each row of one range as its bucket key (`keyOf` its bucket dimension's value) and the metric's value. */
function valuesOf(report: AnalyticsReport, range: string, interval: Interval, metric: string, keyOf: (value: string) => string | undefined) {
  return report.rows.filter((row) => rangeOf(row) === range).map((row) => ({ key: keyOf(row.dimensions[BUCKET_DIMENSION[interval]] ?? ''), value: row.metrics[metric] ?? 0 }));
}

/** A provider bucket value → the key of the range's own bucket it is (weeks and months clipped to the range). */
function ownKeyOf(interval: Interval, span: DateRange, tz: string): (value: string) => string | undefined {
  if (interval === 'hour') {
    const bucketOf = localHourBuckets(tz);
    return (value) => hourOf(value, (date, hour) => bucketOf(date, hour)?.key);
  }
  return (value) => dayBucketOf(value, interval, span);
}

/** A comparison-range row's bucket value → the period's bucket its own bucket (or local hour) pairs with. */
function pairedKeyOf(pairing: ComparisonPairing, interval: Interval, tz: string): (value: string) => string | undefined {
  if (interval === 'hour') {
    const pairedHour = pairedHourBuckets(pairing, tz);
    return (value) => hourOf(value, pairedHour);
  }
  return (value) => {
    const own = dayBucketOf(value, interval, pairing.comparison);
    return own === undefined ? undefined : pairedBucketOfDate(pairing, own, interval);
  };
}

/** GA's `dateHour` (`YYYYMMDDHH`, local) as a date and an hour, handed to `keyOf`. */
function hourOf(value: string, keyOf: (date: IsoDate, hour: number) => string | undefined): string | undefined {
  const date = isoOfGaDate(value.slice(0, 8));
  return date === undefined ? undefined : keyOf(date, Number(value.slice(8, 10)));
}

/** GA's `date`, `isoYearIsoWeek` or `yearMonth` value → the first day of that bucket within `span`. */
function dayBucketOf(value: string, interval: DayInterval, span: DateRange): IsoDate | undefined {
  switch (interval) {
    case 'day':
      return isoOfGaDate(value);
    case 'week': {
      const start = isoWeekStart(Number(value.slice(0, 4)), Number(value.slice(4, 6)));
      return start > span.end || addDays(start, 6) < span.start ? undefined : maxDate(start, span.start);
    }
    case 'month':
      return maxDate(formatYmd(Number(value.slice(0, 4)), Number(value.slice(4, 6)), 1), span.start);
  }
}

function totalOf(report: AnalyticsReport, range: string, metric: string): number {
  return report.rows.find((r) => rangeOf(r) === range)?.metrics[metric] ?? 0;
}
