// Each provider's history as the reports read it, handed to the one coverage decision (domain/history.ts):
// analytics is asked for its first day with data in the same batch as the report being compared; engine1's is its
// window; engine2's is the first day of the rows the report uses.
import type { DateRange } from '../domain/calendar.ts';
import { decideCoverage, engine1History, historyFromRows, type CombinedComparison, type Coverage, type History } from '../domain/history.ts';
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
  const probe = await probeAnalyticsHistory(ctx, source, scope.period, policy, scope.force);
  const coverage = decideCoverage([probe.history], scope.previous);
  return { covered: coverage.uncovered.length === 0, warnings: [...coverage.warnings], results: [probe.result] };
}

/** The property's first day with data up to `until`'s end (one cheap report, batched with the caller's). */
export async function probeAnalyticsHistory(ctx: ReportDeps, source: ConnectedSource, until: DateRange, policy: ReturnType<typeof reportPolicy>, force: boolean): Promise<{ history: History; result: CachedResult<unknown> }> {
  const result = await ctx.loaders.analytics.report(source, firstDayRequest(until), policy, force);
  return { history: analyticsHistory(result.value), result };
}

/** What the search engines that answered hold: engine1 its window, engine2 the rows (daily or weekly) a report uses. */
export interface SearchAnswered {
  engine1?: unknown;
  engine2?: readonly { date: string }[];
}

/** The coverage of a comparison range by the search engines that answered. */
export function searchCoverage(now: Date, answered: SearchAnswered, range: DateRange | undefined, combined: CombinedComparison): Coverage {
  const histories: History[] = [];
  if (answered.engine1 !== undefined) histories.push(engine1History(now));
  if (answered.engine2 !== undefined) histories.push(historyFromRows('engine2', answered.engine2.map((r) => r.date)));
  return decideCoverage(histories, range, { combined });
}
