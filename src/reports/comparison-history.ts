// Comparisons against each provider's own history (SPEC §15): analytics is asked for its first day with data in
// the same batch as the report being compared, and a range the history does not cover compares with null.
import type { DateRange } from '../domain/calendar.ts';
import { comparisonUnavailable, coversRange, historyFromRows, type History } from '../domain/history.ts';
import { EARLIEST_START } from '../domain/period.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import type { ReportDeps } from './report-deps.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import type { Warning } from './meta.ts';
import type { reportPolicy } from '../cache/upstream-policy.ts';
import type { AnalyticsReport } from '../providers/analytics/normalize.ts';
import type { ReportScope } from './report-context.ts';

/** The comparison range a provider can be asked for: none before the API's first accepted day. */
export function requestableRange(previous: DateRange | undefined): DateRange | undefined {
  return previous && previous.start >= EARLIEST_START ? previous : undefined;
}

/**
 * The property's first day with any event: one row of `date` ascending over everything GA accepts up to the
 * period's end. GA returns no row for a day without activity, so before the property existed there is none.
 */
export function firstDayRequest(until: DateRange) {
  return {
    dateRanges: [{ startDate: EARLIEST_START, endDate: until.end }],
    dimensions: [{ name: 'date' }],
    metrics: [{ name: 'eventCount' }],
    orderBys: [{ dimension: { dimensionName: 'date' }, desc: false }],
    limit: '1',
  };
}

/** GA's `YYYYMMDD` date of the probe's row as the property's history. */
export function analyticsHistory(report: AnalyticsReport): History {
  const days = report.rows.map((r) => r.dimensions.date ?? '').filter((d) => d.length === 8).map((d) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`);
  return historyFromRows('analytics', days);
}

export interface AnalyticsCoverage {
  /** True when the comparison range can be compared (false also when not comparing). */
  covered: boolean;
  warnings: Warning[];
  results: CachedResult<unknown>[];
}

/** Asks for the property's history when comparing (in the caller's batch: call it alongside the report). */
export async function analyticsCoverage(ctx: ReportDeps, source: ConnectedSource, scope: ReportScope, policy: ReturnType<typeof reportPolicy>): Promise<AnalyticsCoverage> {
  if (!scope.previous) return { covered: false, warnings: [], results: [] };
  const probe = await ctx.loaders.analytics.report(source, firstDayRequest(scope.period), policy, scope.force);
  const history = analyticsHistory(probe.value);
  const covered = coversRange(history, scope.previous);
  return { covered, warnings: covered ? [] : [comparisonUnavailable(history, scope.previous)], results: [probe] };
}
