// Site breakdown by one dimension (`/dimension`): metrics per dimension value, ordered and paged by the
// provider, filtered with the contract's filter language, optionally compared with a previous range.
import { DEFAULT_DIMENSION_METRICS, MAX_METRICS, parseNameList, parseRequiredName } from '../domain/catalogue.ts';
import { compared, type Compared } from '../domain/compare.ts';
import { comparisonRequest, type ReportRequest } from '../domain/comparison-request.ts';
import { parseFilter } from '../domain/filter.ts';
import type { PeriodJson } from '../domain/period.ts';
import { parseLimit, parseOffset, parseOrder } from '../domain/request-params.ts';
import type { ReportDeps } from './report-deps.ts';
import { requireSource } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import { analyticsReportPolicy } from '../cache/upstream-policy.ts';
import { toAnalyticsRequest } from '../providers/analytics/translate.ts';
import { analyticsFields } from './analytics-fields.ts';
import { analyticsCoverage } from './comparison-history.ts';
import { resolveReportScope, type PeriodArgs } from './report-context.ts';

export interface BreakdownArgs extends PeriodArgs {
  dimension?: string | null;
  metrics?: string | null;
  limit?: string | null;
  offset?: string | null;
  order?: string | null;
  filter?: string | null;
}

export interface SiteBreakdown {
  project: string;
  period: PeriodJson;
  dimension: string;
  metrics: string[];
  rows: Record<string, string | number | Compared>[];
  totalRows: number;
  limit: number;
  offset: number;
  meta: Meta;
}

export async function siteBreakdown(ctx: ReportDeps, args: BreakdownArgs): Promise<SiteBreakdown> {
  const scope = await resolveReportScope(ctx, args, 'none', 'analytics');
  const limit = parseLimit(args.limit ?? undefined);
  const offset = parseOffset(args.offset ?? undefined);
  const source = await requireSource(ctx, scope.project, 'analytics');
  const fields = await analyticsFields(ctx, source, { metrics: args.metrics, dimensions: [args.dimension], filter: args.filter });
  const dimension = parseRequiredName(args.dimension ?? undefined, 'dimension', 'dimension', fields.dimensions);
  const metrics = [...parseNameList(args.metrics ?? undefined, { param: 'metrics', kind: 'metric', available: fields.metrics, fallback: DEFAULT_DIMENSION_METRICS, max: MAX_METRICS })];
  const order = parseOrder(args.order ?? undefined, metrics);
  const filter = parseFilter(args.filter ?? undefined, 'filter', fields.dimensions);

  const policy = analyticsReportPolicy(scope.period.end, scope.timezone, scope.now);
  const request: ReportRequest = { range: scope.period, dimensions: [dimension], metrics, ...(filter ? { filter } : {}), order, limit, offset };
  const [current, coverage] = await Promise.all([
    ctx.loaders.analytics.report(source, toAnalyticsRequest(request), policy, scope.force),
    analyticsCoverage(ctx, source, scope, policy),
  ]);
  const compareWith = coverage.covered ? scope.previous : undefined;
  const values = current.value.rows.map((r) => r.dimensions[dimension] ?? '');
  // The same filter over the comparison range, for exactly the values on this page (paging stays the current range's).
  const previous =
    compareWith && values.length > 0
      ? await ctx.loaders.analytics.report(
          source,
          toAnalyticsRequest(comparisonRequest(request, compareWith, { dimension, values })),
          analyticsReportPolicy(compareWith.end, scope.timezone, scope.now),
          scope.force,
        )
      : undefined;
  const previousByValue = new Map(previous?.value.rows.map((r) => [r.dimensions[dimension] ?? '', r.metrics]) ?? []);

  const rows = current.value.rows.map((row) => {
    const value = row.dimensions[dimension] ?? '';
    const out: Record<string, string | number | Compared> = { [dimension]: value };
    for (const metric of metrics) {
      const now = row.metrics[metric] ?? 0;
      // A value absent from the covered previous range had no activity then (GA drops all-zero rows): 0 is true.
      out[metric] = scope.previous ? compared(now, compareWith ? (previousByValue.get(value)?.[metric] ?? 0) : null) : now;
    }
    return out;
  });
  // The property's metadata only validated names: the data's age and cache state are the reports'.
  const results = [current, ...(previous ? [previous] : []), ...coverage.results];
  return {
    project: scope.project.key,
    period: scope.periodJson,
    dimension,
    metrics,
    rows,
    totalRows: current.value.rowCount,
    limit,
    offset,
    meta: buildMeta({ results, sources: ['analytics'], warnings: [...scope.warnings, ...coverage.warnings, ...current.value.warnings], now: scope.now, zone: scope.timezone }),
  };
}
