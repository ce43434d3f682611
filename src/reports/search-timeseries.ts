// Search timeseries: clicks, impressions, CTR and position per day, week or month (engine1 daily rows,
// engine2 daily site traffic), or per hour from engine1's hourly data (engine2 has none and is left out).
import type { SearchProviderChoice } from '../domain/request-params.ts';
import type { DateRange } from '../domain/calendar.ts';
import { bucketKeyOfDate, bucketKeys, defaultInterval, parseInterval, type Interval } from '../domain/interval.ts';
import { hourKeyAt } from '../domain/hours.ts';
import { todayInZone } from '../domain/time-zone.ts';
import type { PeriodJson } from '../domain/period.ts';
import { mergeSearchMetrics, type SearchMetricsInput } from '../domain/search-combine.ts';
import type { SearchSource } from '../domain/sources.ts';
import { AppError } from '../errors/app-error.ts';
import type { ReportDeps } from './report-deps.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import { buildMeta, type Meta, type Warning } from './meta.ts';
import { reportPolicy } from '../cache/upstream-policy.ts';
import { addDays } from '../domain/calendar.ts';
import { resolveReportScope } from './report-context.ts';
import { cutDaily } from './search-engine2.ts';
import { dailyRequest, ENGINE2_NO_POSITION, type SearchArgs } from './search-summary.ts';
import { engine1Freshness, figuresOf, mergeFigures, NO_FIGURES, resolveSearchSources, settleEngines, sourcesUsed, type FiguresInput, type SearchFigures } from './search-sources.ts';

export interface SearchTimeseriesArgs extends SearchArgs {
  interval?: string | null;
}

export interface SearchPoint extends SearchFigures {
  /** `YYYY-MM-DD` (day/week/month: the bucket's first day in the period). */
  date?: string;
  /** ISO-8601 local hour with offset (interval=hour). */
  time?: string;
  byProvider?: Partial<Record<SearchSource, SearchFigures>>;
}

export interface SearchTimeseries {
  project: string;
  period: PeriodJson;
  sp: SearchProviderChoice;
  interval: Interval;
  points: SearchPoint[];
  totals: SearchFigures;
  byProvider?: Partial<Record<SearchSource, SearchFigures>>;
  meta: Meta;
}

export async function searchTimeseries(ctx: ReportDeps, args: SearchTimeseriesArgs): Promise<SearchTimeseries> {
  const scope = await resolveReportScope(ctx, { ...args, compare: 'none' }, 'none');
  const { period, project } = scope;
  // A one-day period defaults to hours, which only engine1 keeps: asked of engine2 alone, with no interval given, it
  // is the one day (an interval=hour asked of engine2 is still refused, naming the parameter).
  const asked = args.interval || (args.sp === 'engine2' && defaultInterval(period) === 'hour' ? 'day' : undefined);
  const interval = parseInterval(asked, period);
  const hourly = interval === 'hour';
  if (hourly) assertWithinHourlyWindow(period, project.timezone, scope.now);
  const { choice, connected, warnings: sourceWarnings } = await resolveSearchSources(
    ctx,
    project,
    args.sp,
    hourly
      ? {
          engines: ['engine1'],
          reason: () => 'engine2 has no hourly data; it is left out of interval=hour.',
          alone: () => new AppError('invalid_parameter', 'engine2 has no hourly data: use interval day, week or month with sp=engine2.', { param: 'interval', provider: 'engine2' }),
        }
      : undefined,
  );
  const policy = reportPolicy(period.end, project.timezone, scope.now);
  const keys = bucketKeys(period, interval, project.timezone, { now: scope.now });
  const bucketOf = hourly ? hourBucket(project.timezone) : (date: string) => bucketKeyOfDate(date, interval, period);
  const known = new Set(keys);
  const warnings: Warning[] = [...scope.warnings, ...sourceWarnings];

  const e1 = connected.engine1 ? ctx.loaders.engine1.query(connected.engine1, hourly ? hourlyRequest(period) : dailyRequest(period), policy, scope.force) : undefined;
  const e2 = connected.engine2 ? ctx.loaders.engine2.trafficStats(connected.engine2, scope.force) : undefined;
  const [r1, r2] = await settleEngines(choice, e1, e2, warnings);

  const perProvider: Partial<Record<SearchSource, Map<string, FiguresInput[]>>> = {};
  let dataThrough: string | undefined;
  if (r1) {
    const buckets = new Map<string, FiguresInput[]>();
    for (const row of r1.value.rows) {
      const key = bucketOf(hourly ? (row.keys.hour ?? '') : (row.keys.date ?? ''));
      if (key !== undefined && known.has(key)) push(buckets, key, row);
    }
    perProvider.engine1 = buckets;
    if (hourly) {
      if (r1.value.firstIncompleteHour) {
        warnings.push({ code: 'incomplete_data', message: `engine1 hourly data from ${r1.value.firstIncompleteHour} on is still being completed.` });
      }
    } else {
      const freshness = engine1Freshness(period, r1.value.firstIncompleteDate, r1.value.dataThrough);
      dataThrough = freshness.dataThrough;
      warnings.push(...freshness.warnings);
    }
  }
  if (r2) {
    const cut = cutDaily(r2.value, period);
    const buckets = new Map<string, FiguresInput[]>();
    for (const row of cut.rows) push(buckets, bucketOf(row.date)!, { clicks: row.clicks, impressions: row.impressions, position: null });
    perProvider.engine2 = buckets;
    warnings.push(...cut.warnings, ENGINE2_NO_POSITION);
  }

  const used = sourcesUsed(perProvider);
  const withBreakdown = choice === 'all';
  const points = keys.map((key): SearchPoint => {
    const parts: Partial<Record<SearchSource, SearchFigures>> = {};
    for (const s of used) parts[s] = figuresFor(s, perProvider[s]!.get(key));
    const combined = mergeFigures(used.map((s) => parts[s]!));
    return { ...(hourly ? { time: key } : { date: key }), ...combined, ...(withBreakdown ? { byProvider: parts } : {}) };
  });
  const totalsBy: Partial<Record<SearchSource, SearchFigures>> = {};
  for (const s of used) totalsBy[s] = figuresFor(s, [...perProvider[s]!.values()].flat());
  const results: CachedResult<unknown>[] = [r1, r2].filter((r) => r !== undefined);
  return {
    project: project.key,
    period: scope.periodJson,
    sp: choice,
    interval,
    points,
    totals: mergeFigures(used.map((s) => totalsBy[s]!)),
    ...(withBreakdown ? { byProvider: totalsBy } : {}),
    meta: buildMeta({ results, sources: used, warnings, now: scope.now, ...(dataThrough ? { dataThrough } : {}) }),
  };
}

function push(map: Map<string, FiguresInput[]>, key: string, value: FiguresInput): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** engine1 rows carry positions (merged impression-weighted); engine2 traffic rows do not. */
function figuresFor(source: SearchSource, parts: FiguresInput[] | undefined): SearchFigures {
  if (!parts || parts.length === 0) return NO_FIGURES;
  return source === 'engine1' ? figuresOf(mergeSearchMetrics(parts as SearchMetricsInput[])) : mergeFigures(parts);
}

/**
 * engine1 hours are Pacific (`2026-04-07T13:00:00-07:00`); each is re-keyed to the project zone's local hour.
 * The request spans a day either side so every hour of the period in the project zone is covered.
 */
function hourlyRequest(period: DateRange) {
  return { startDate: addDays(period.start, -1), endDate: addDays(period.end, 1), dimensions: ['hour'], dataState: 'hourly_all', rowLimit: 25_000 };
}

function hourBucket(timeZone: string): (key: string) => string | undefined {
  return (key) => {
    const instant = Date.parse(key);
    return Number.isNaN(instant) ? undefined : hourKeyAt(instant, timeZone);
  };
}

/** engine1 keeps hourly data for the last 10 days only: an older hourly period would be silent zeros. */
function assertWithinHourlyWindow(period: DateRange, timeZone: string, now: Date): void {
  const earliest = addDays(todayInZone(timeZone, now), -HOURLY_HISTORY_DAYS);
  if (period.start < earliest) {
    throw new AppError('invalid_parameter', `Hourly search data covers the last ${HOURLY_HISTORY_DAYS} days only (from ${earliest}); the period starts ${period.start}. Use interval=day for older periods.`, { param: 'interval' });
  }
}

const HOURLY_HISTORY_DAYS = 10;
