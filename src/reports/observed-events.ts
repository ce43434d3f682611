// Observed events (MCP list_observed_events, funnel validation): the events the property recorded in a period,
// most frequent first, through the batching analytics loader.
import type { PeriodJson } from '../domain/period.ts';
import { parseLimit } from '../domain/request-params.ts';
import type { ReportDeps } from './report-deps.ts';
import { requireSource } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import { analyticsReportPolicy } from '../cache/upstream-policy.ts';
import { toDateRanges, toDimensions, toMetrics } from '../providers/analytics/translate.ts';
import { resolveReportScope } from './report-context.ts';

export interface ObservedArgs {
  project: string;
  period?: string | null;
  limit?: string | null;
  force?: string | null;
}

export interface ObservedEvents {
  project: string;
  period: PeriodJson;
  rows: { eventName: string; eventCount: number; users: number }[];
  totalRows: number;
  limit: number;
  meta: Meta;
}

export async function observedEvents(ctx: ReportDeps, args: ObservedArgs): Promise<ObservedEvents> {
  const scope = await resolveReportScope(ctx, { ...args, compare: 'none' }, 'none', 'analytics');
  const limit = parseLimit(args.limit ?? undefined);
  const source = await requireSource(ctx, scope.project, 'analytics');
  const request = {
    dateRanges: toDateRanges(scope.period),
    dimensions: toDimensions(['eventName']),
    metrics: toMetrics(['eventCount', 'activeUsers']),
    orderBys: [{ metric: { metricName: 'eventCount' }, desc: true }],
    limit: String(limit),
  };
  const result = await ctx.loaders.analytics.report(source, request, analyticsReportPolicy(scope.period.end, scope.timezone, scope.now), scope.force);
  return {
    project: scope.project.key,
    period: scope.periodJson,
    rows: result.value.rows.map((r) => ({ eventName: r.dimensions.eventName ?? '', eventCount: r.metrics.eventCount ?? 0, users: r.metrics.activeUsers ?? 0 })),
    totalRows: result.value.rowCount,
    limit,
    meta: buildMeta({ results: [result], sources: ['analytics'], warnings: [...scope.warnings, ...result.value.warnings], now: scope.now }),
  };
}
