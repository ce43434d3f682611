// The comparison side of a site timeseries when the comparison range's own calendar buckets are not the period's
// (weeks shifted by other than whole weeks; months): the buckets are the period's, each holding the comparison
// days paired with it (domain/comparison-buckets.ts). Counts are read per day and added up; users, rates and custom
// metrics do not add up across days, so the provider is asked for each bucket's paired days, four ranges a request.
import type { CachedResult } from '../cache/cached-fetch.ts';
import type { CachePolicy } from '../cache/ttl-policy.ts';
import type { IsoDate } from '../domain/calendar.ts';
import { analyticsMetricInfo } from '../domain/catalogue.ts';
import { pairedBucketOfDate, pairedRanges, sumByBucket, type ComparisonPairing, type DayInterval } from '../domain/comparison-buckets.ts';
import { bucketKeys } from '../domain/interval.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import type { AnalyticsReport } from '../providers/analytics/normalize.ts';
import { rangeOf, toAnalyticsRequest } from '../providers/analytics/translate.ts';
import type { ReportDeps } from './report-deps.ts';

/** The provider takes at most 4 date ranges per report. */
const RANGES_PER_REPORT = 4;

export interface PairedPrevious {
  /** One value per bucket of the period, in bucket order. */
  values: number[];
  results: CachedResult<AnalyticsReport>[];
}

/** GA's `YYYYMMDD` as an ISO date (undefined for anything else). */
export function isoOfGaDate(value: string): IsoDate | undefined {
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : undefined;
}

/** One value per bucket of the period; a bucket no comparison day pairs with (a shorter calendar unit) is 0. */
export async function pairedPrevious(ctx: ReportDeps, source: ConnectedSource, pairing: ComparisonPairing, interval: DayInterval, metric: string, policy: CachePolicy, force: boolean): Promise<PairedPrevious> {
  const keys = bucketKeys(pairing.period, interval, 'UTC');
  const ranges = pairedRanges(pairing, interval);
  if (analyticsMetricInfo(metric)?.additive === true) {
    const daily = await ctx.loaders.analytics.report(source, toAnalyticsRequest({ range: pairing.comparison, dimensions: ['date'], metrics: [metric], limit: 100_000 }), policy, force);
    const bucketOf = (date: IsoDate | undefined) => (date === undefined ? undefined : pairedBucketOfDate(pairing, date, interval));
    return { values: sumByBucket(keys, daily.value.rows.map((row) => ({ key: bucketOf(isoOfGaDate(row.dimensions.date ?? '')), value: row.metrics[metric] ?? 0 }))), results: [daily] };
  }
  const name = (i: number) => `bucket_${i}`;
  const chunks: { first: number; count: number }[] = [];
  for (let first = 0; first < ranges.length; first += RANGES_PER_REPORT) chunks.push({ first, count: Math.min(RANGES_PER_REPORT, ranges.length - first) });
  const results = await Promise.all(
    chunks.map(({ first, count }) => {
      const dateRanges = ranges.slice(first, first + count).map((r, i) => ({ startDate: r.start, endDate: r.end, name: name(first + i) }));
      return ctx.loaders.analytics.report(source, { ...toAnalyticsRequest({ range: ranges[first]!, dimensions: [], metrics: [metric] }), dateRanges }, policy, force);
    }),
  );
  const byKey = new Map(
    ranges.map((range, i) => {
      const chunk = Math.floor(i / RANGES_PER_REPORT);
      // With one date range the provider labels no row with it.
      const row = results[chunk]!.value.rows.find((r) => chunks[chunk]!.count === 1 || rangeOf(r) === name(i));
      return [range.key, row?.metrics[metric] ?? 0];
    }),
  );
  return { values: keys.map((key) => byKey.get(key) ?? 0), results };
}
