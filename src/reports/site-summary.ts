// Site summary: the eleven headline metrics for a period, each compared with the previous period or
// the year before — current and previous come from the same upstream round trip.
import { SUMMARY_METRICS } from '../domain/catalogue.ts';
import { compared, type Compared } from '../domain/compare.ts';
import { withComparisonRange } from '../domain/comparison-request.ts';
import type { ReportDeps } from './report-deps.ts';
import { requireSource } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import { analyticsReportPolicy } from '../cache/upstream-policy.ts';
import { PREVIOUS_RANGE, rangeOf, toAnalyticsRequest } from '../providers/analytics/translate.ts';
import type { AnalyticsReport } from '../providers/analytics/normalize.ts';
import type { PeriodJson } from '../domain/period.ts';
import { analyticsCoverage, requestableRange } from './comparison-history.ts';
import { resolveReportScope, type PeriodArgs } from './report-context.ts';

/** GA accepts at most 10 metrics per report; the summary needs 11, so it asks for two reports in one batch. */
const METRICS_PER_REPORT = 10;

export interface SiteSummary {
  project: string;
  period: PeriodJson;
  metrics: Record<string, number | Compared>;
  meta: Meta;
}

export async function siteSummary(ctx: ReportDeps, args: PeriodArgs): Promise<SiteSummary> {
  const scope = await resolveReportScope(ctx, args, 'previous', 'analytics');
  const source = await requireSource(ctx, scope.project, 'analytics');
  const policy = analyticsReportPolicy(scope.period.end, scope.timezone, scope.now);
  const chunks = [SUMMARY_METRICS.slice(0, METRICS_PER_REPORT), SUMMARY_METRICS.slice(METRICS_PER_REPORT)];
  const request = (metrics: readonly string[]) => toAnalyticsRequest(withComparisonRange({ range: scope.period, dimensions: [], metrics }, requestableRange(scope.previous)));
  const [coverage, results] = await Promise.all([
    analyticsCoverage(ctx, source, scope, policy),
    Promise.all(chunks.map((metrics) => ctx.loaders.analytics.report(source, request(metrics), policy, scope.force))),
  ]);

  const metrics: Record<string, number | Compared> = {};
  for (const [index, names] of chunks.entries()) {
    const report = results[index]!.value;
    for (const name of names) {
      const current = valueIn(report, name, 'current');
      metrics[name] = scope.previous ? compared(current, coverage.covered ? valueIn(report, name, PREVIOUS_RANGE) : null) : current;
    }
  }
  const warnings = [...scope.warnings, ...coverage.warnings, ...results.flatMap((r) => r.value.warnings)];
  return {
    project: scope.project.key,
    period: scope.periodJson,
    metrics,
    meta: buildMeta({ results: [...results, ...coverage.results], sources: ['analytics'], warnings, now: scope.now, zone: scope.timezone }),
  };
}

/** A range with no activity has no row at all (GA drops all-zero rows). */
function valueIn(report: AnalyticsReport, metric: string, range: string): number {
  const row = report.rows.find((r) => rangeOf(r) === range);
  return row?.metrics[metric] ?? 0;
}
