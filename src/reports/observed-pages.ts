// Observed pages (MCP list_observed_pages, funnel validation): page paths viewed in a period, most viewed first,
// optionally filtered on pagePath (sent upstream as the analytics dimensionFilter).
import { toAnalyticsFilterExpression } from '../domain/filter-analytics.ts';
import { parseFilter } from '../domain/filter.ts';
import type { PeriodJson } from '../domain/period.ts';
import { parseLimit } from '../domain/request-params.ts';
import type { ReportDeps } from './report-deps.ts';
import { requireSource } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import { analyticsReportPolicy } from '../cache/upstream-policy.ts';
import type { RunReportRequest } from '../providers/analytics/client.ts';
import { toDateRanges, toDimensions, toMetrics } from '../providers/analytics/translate.ts';
import type { ObservedArgs } from './observed-events.ts';
import { resolveReportScope } from './report-context.ts';

export interface ObservedPagesArgs extends ObservedArgs {
  filter?: string | null;
}

export interface ObservedPages {
  project: string;
  period: PeriodJson;
  rows: { pagePath: string; screenPageViews: number; users: number }[];
  totalRows: number;
  limit: number;
  meta: Meta;
}

export async function observedPages(ctx: ReportDeps, args: ObservedPagesArgs): Promise<ObservedPages> {
  const scope = await resolveReportScope(ctx, { ...args, compare: 'none' }, 'none', 'analytics');
  const limit = parseLimit(args.limit ?? undefined);
  const filter = parseFilter(args.filter ?? undefined, 'filter', ['pagePath']);
  const source = await requireSource(ctx, scope.project, 'analytics');
  const request: RunReportRequest = {
    dateRanges: toDateRanges(scope.period),
    dimensions: toDimensions(['pagePath']),
    metrics: toMetrics(['screenPageViews', 'activeUsers']),
    orderBys: [{ metric: { metricName: 'screenPageViews' }, desc: true }],
    limit: String(limit),
    ...(filter ? { dimensionFilter: toAnalyticsFilterExpression(filter) as RunReportRequest['dimensionFilter'] } : {}),
  };
  const result = await ctx.loaders.analytics.report(source, request, analyticsReportPolicy(scope.period.end, scope.timezone, scope.now), scope.force);
  return {
    project: scope.project.key,
    period: scope.periodJson,
    rows: result.value.rows.map((r) => ({ pagePath: r.dimensions.pagePath ?? '', screenPageViews: r.metrics.screenPageViews ?? 0, users: r.metrics.activeUsers ?? 0 })),
    totalRows: result.value.rowCount,
    limit,
    meta: buildMeta({ results: [result], sources: ['analytics'], warnings: [...scope.warnings, ...result.value.warnings], now: scope.now }),
  };
}
