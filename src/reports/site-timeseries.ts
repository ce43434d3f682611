// Site timeseries (SPEC §4): one metric per hour, day, week or month of the period, every bucket present (0 when
// empty), with the period total and, when comparing, the previous range aligned bucket by bucket.
import { addDays, formatYmd, isoWeekStart, maxDate, type DateRange } from '../domain/calendar.ts';
import { requireAvailableName, DEFAULT_TIMESERIES_METRIC } from '../domain/catalogue.ts';
import { compared, type Compared } from '../domain/compare.ts';
import { withComparisonRange } from '../domain/comparison-request.ts';
import { hourKeysForLocalHour } from '../domain/hours.ts';
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
  const fields = await analyticsFields(ctx, source);
  const metric = args.metric ? requireAvailableName('metric', 'metric', args.metric, fields.metrics) : DEFAULT_TIMESERIES_METRIC;

  const policy = analyticsReportPolicy(scope.period.end, scope.timezone, scope.now);
  const dimension = BUCKET_DIMENSION[interval];
  const totalRequest = withComparisonRange({ range: scope.period, dimensions: [], metrics: [metric] }, requestableRange(scope.previous));
  const [series, totals, coverage] = await Promise.all([
    ctx.loaders.analytics.report(source, toAnalyticsRequest({ ...totalRequest, dimensions: [dimension], limit: 100_000 }, { keepEmptyRows: true }), policy, scope.force),
    // Totals come from the provider: users and rates do not add up across buckets.
    ctx.loaders.analytics.report(source, toAnalyticsRequest(totalRequest), policy, scope.force),
    analyticsCoverage(ctx, source, scope, policy),
  ]);

  // Buckets follow the zone the provider actually used (its metadata), so no hour is shifted or dropped even when
  // the property's zone changed since it was last read.
  const tz = series.value.timeZone ?? scope.timezone;
  const currentKeys = bucketKeys(scope.period, interval, tz, { now: scope.now });
  const current = bucketValues(series.value, CURRENT_RANGE, metric, interval, scope.period, tz, currentKeys);
  const compareWith = coverage.covered ? scope.previous : undefined;
  const previous = compareWith ? bucketValues(series.value, PREVIOUS_RANGE, metric, interval, compareWith, tz, bucketKeys(compareWith, interval, tz)) : undefined;

  const keyName = interval === 'hour' ? 'time' : 'date';
  const points = currentKeys.map((key, i) => ({ [keyName]: key, value: scope.previous ? compared(current[i]!, previous ? (previous[i] ?? 0) : null) : current[i]! }));
  const total = totalOf(totals.value, CURRENT_RANGE, metric);
  return {
    project: scope.project.key,
    period: scope.periodJson,
    metric,
    interval,
    points,
    total: scope.previous ? compared(total, compareWith ? totalOf(totals.value, PREVIOUS_RANGE, metric) : null) : total,
    meta: buildMeta({ results: [series, totals, ...coverage.results], sources: ['analytics'], warnings: [...scope.warnings, ...coverage.warnings, ...series.value.warnings], now: scope.now, zone: scope.timezone }),
  };
}

/** One value per bucket key (0 where the provider has no row). */
function bucketValues(report: AnalyticsReport, range: string, metric: string, interval: Interval, span: DateRange, tz: string, keys: string[]): number[] {
  const index = new Map(keys.map((k, i) => [k, i]));
  const values = keys.map(() => 0);
  for (const row of report.rows) {
    if (rangeOf(row) !== range) continue;
    const key = bucketKeyOf(row.dimensions[BUCKET_DIMENSION[interval]] ?? '', interval, span, tz);
    const at = key === undefined ? undefined : index.get(key);
    if (at !== undefined) values[at] = (values[at] ?? 0) + (row.metrics[metric] ?? 0);
  }
  return values;
}

/** Provider bucket value → our bucket key (week and month keys are clipped to the start of the range). */
function bucketKeyOf(value: string, interval: Interval, span: DateRange, tz: string): string | undefined {
  switch (interval) {
    case 'day':
      return value.length === 8 ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : undefined;
    case 'hour': {
      const date = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
      // A repeated local hour (DST end) is reported once by the provider: it is given to the first of its two keys.
      return hourKeysForLocalHour(date, Number(value.slice(8, 10)), tz)[0];
    }
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
