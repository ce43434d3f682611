// Search breakdown: rows per query, page, country, device or date, combined across engines on the
// normalised key. engine1 filters upstream (what it cannot express is a 400 naming it); engine2 serves query and
// page only, from weekly history cut to the period and filtered locally.
import type { SearchProviderChoice } from '../domain/request-params.ts';
import { parseRequiredName, SEARCH_DIMENSION_NAMES, SEARCH_DIMENSION_SOURCES, SEARCH_METRIC_NAMES, type SearchDimension } from '../domain/catalogue.ts';
import { filterDimensions, formatFilter, parseFilter, type FilterAst } from '../domain/filter.ts';
import { compileFilter } from '../domain/filter-match.ts';
import { toSearchConsoleFilterGroups } from '../domain/filter-search-console.ts';
import type { PeriodJson } from '../domain/period.ts';
import { quoteInput } from '../domain/quote.ts';
import { parseLimit, parseOffset, parseOrder, type Order } from '../domain/request-params.ts';
import { combineSearchRows, type CombinedSearchRow, type SearchRowInput } from '../domain/search-combine.ts';
import type { SearchSource } from '../domain/sources.ts';
import { AppError } from '../errors/app-error.ts';
import type { ReportDeps } from './report-deps.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import { buildMeta, type Meta, type Warning } from './meta.ts';
import { reportPolicy } from '../cache/upstream-policy.ts';
import { resolveReportScope, type ReportScope } from './report-context.ts';
import { cutWeekly } from './search-engine2.ts';
import { dailyRequest, type SearchArgs } from './search-summary.ts';
import { engine1Freshness, resolveSearchSources, settleEngines, sourcesUsed } from './search-sources.ts';

/** Rows read from engine1 for one breakdown (4 pages); sorting and combining need every row, not the top few. */
export const BREAKDOWN_ROW_CAP = 100_000;

export interface SearchBreakdownArgs extends SearchArgs {
  dimension?: string | null;
  limit?: string | null;
  offset?: string | null;
  order?: string | null;
  filter?: string | null;
}

export interface SearchBreakdown {
  project: string;
  period: PeriodJson;
  sp: SearchProviderChoice;
  dimension: SearchDimension;
  rows: Record<string, unknown>[];
  totalRows: number;
  limit: number;
  offset: number;
  meta: Meta;
}

export interface ParsedBreakdown {
  dimension: SearchDimension;
  filter: FilterAst | undefined;
  limit: number;
  offset: number;
  order: Order;
}

export function parseBreakdownArgs(args: SearchBreakdownArgs): ParsedBreakdown {
  const dimension = parseRequiredName(args.dimension ?? undefined, 'dimension', 'dimension', SEARCH_DIMENSION_NAMES) as SearchDimension;
  return {
    dimension,
    filter: parseFilter(args.filter ?? undefined, 'filter', SEARCH_DIMENSION_NAMES),
    limit: parseLimit(args.limit ?? undefined),
    offset: parseOffset(args.offset ?? undefined),
    order: parseOrder(args.order ?? undefined, SEARCH_METRIC_NAMES),
  };
}

export async function searchBreakdown(ctx: ReportDeps, args: SearchBreakdownArgs): Promise<SearchBreakdown> {
  const scope = await resolveReportScope(ctx, { ...args, compare: 'none' }, 'none');
  const parsed = parseBreakdownArgs(args);
  const rows = await combinedSearchRows(ctx, scope, args.sp, parsed.dimension, parsed.filter, args.filter ?? undefined);
  const sorted = sortRows(rows.rows, parsed.order);
  return {
    project: scope.project.key,
    period: scope.periodJson,
    sp: rows.choice,
    dimension: parsed.dimension,
    rows: sorted.slice(parsed.offset, parsed.offset + parsed.limit).map((r) => ({
      [parsed.dimension]: r.key,
      clicks: r.clicks,
      impressions: r.impressions,
      ctr: r.ctr,
      position: r.position,
      byProvider: r.byProvider,
    })),
    totalRows: sorted.length,
    limit: parsed.limit,
    offset: parsed.offset,
    meta: rows.meta,
  };
}

export interface CombinedRows {
  choice: SearchProviderChoice;
  rows: CombinedSearchRow[];
  meta: Meta;
  /** What meta was built from, for pipelines that join these rows with other data. */
  results: CachedResult<unknown>[];
  warnings: Warning[];
  sources: SearchSource[];
  dataThrough?: string;
}

/** Every row of one search dimension over the scope's period, combined across the engines `sp` selects. */
export async function combinedSearchRows(
  ctx: ReportDeps,
  scope: ReportScope,
  sp: string | null | undefined,
  dimension: SearchDimension,
  filter: FilterAst | undefined,
  rawFilter: string | undefined,
): Promise<CombinedRows> {
  const { period, project } = scope;
  const served = SEARCH_DIMENSION_SOURCES[dimension];
  const engine2Filterable = filter === undefined || filterDimensions(filter).every((d) => d === dimension);
  const text = rawFilter ?? (filter ? formatFilter(filter) : '');
  const { choice, connected, warnings: sourceWarnings } = await resolveSearchSources(ctx, project, sp, {
    engines: served.filter((e) => e !== 'engine2' || engine2Filterable),
    reason: (engine) =>
      served.includes(engine)
        ? `${engine} rows only carry the ${dimension}, so filter ${quoteInput(text)} cannot be applied to them; rows come from engine1 alone.`
        : `${engine} cannot break search data down by ${dimension} (it serves ${dimensionsOf(engine).join(' and ')} only); rows come from engine1 alone.`,
    alone: (engine) =>
      served.includes(engine)
        ? new AppError('invalid_parameter', `Filter ${quoteInput(text)} is not supported by ${engine}: its ${dimension} rows carry no other dimension to filter on.`, { param: 'filter', provider: engine })
        : new AppError('invalid_parameter', `${engine} cannot break search data down by ${quoteInput(dimension)}; it serves ${dimensionsOf(engine).join(' and ')}.`, { param: 'dimension', provider: engine }),
  });
  const warnings: Warning[] = [...scope.warnings, ...sourceWarnings];
  const policy = reportPolicy(period.end, project.timezone, scope.now);
  // Translated before any upstream call, so an unsupported filter costs nothing.
  const groups = connected.engine1 && filter ? toSearchConsoleFilterGroups(filter, { raw: text }) : undefined;

  const e1 = connected.engine1 ? engine1Rows(ctx, connected.engine1, scope, dimension, groups, policy) : undefined;
  const e2 = connected.engine2 ? engine2Rows(ctx, connected.engine2, scope, dimension as 'query' | 'page', filter) : undefined;
  const [r1, r2] = await settleEngines(choice, e1, e2, warnings);

  const byProvider: Partial<Record<SearchSource, SearchRowInput[]>> = {};
  const results: CachedResult<unknown>[] = [];
  let dataThrough: string | undefined;
  if (r1) {
    byProvider.engine1 = r1.rows;
    results.push(...r1.results);
    dataThrough = r1.dataThrough;
    warnings.push(...r1.warnings);
  }
  if (r2) {
    byProvider.engine2 = r2.rows;
    results.push(r2.result);
    warnings.push(...r2.warnings);
  }
  const sources = sourcesUsed(byProvider);
  return {
    choice,
    rows: combineSearchRows(byProvider, dimension),
    meta: buildMeta({ results, sources, warnings, now: scope.now, ...(dataThrough ? { dataThrough } : {}) }),
    results,
    warnings,
    sources,
    ...(dataThrough ? { dataThrough } : {}),
  };
}

function dimensionsOf(engine: SearchSource): SearchDimension[] {
  return SEARCH_DIMENSION_NAMES.filter((d) => SEARCH_DIMENSION_SOURCES[d].includes(engine));
}

async function engine1Rows(
  ctx: ReportDeps,
  cs: ConnectedSource,
  scope: ReportScope,
  dimension: SearchDimension,
  groups: ReturnType<typeof toSearchConsoleFilterGroups> | undefined,
  policy: ReturnType<typeof reportPolicy>,
) {
  const { period, force } = scope;
  const request = {
    startDate: period.start,
    endDate: period.end,
    dimensions: [dimension],
    ...(groups ? { dimensionFilterGroups: groups.map((g) => ({ groupType: g.groupType, filters: g.filters.map((f) => ({ ...f })) })) } : {}),
    rowLimit: BREAKDOWN_ROW_CAP,
  };
  // The daily totals request (shared with the summary/timeseries cache) tells how fresh the period's data is.
  const [rows, daily] = await Promise.all([
    ctx.loaders.engine1.query(cs, request, policy, force),
    dimension === 'date' ? undefined : ctx.loaders.engine1.query(cs, dailyRequest(period), policy, force),
  ]);
  const fresh = (daily ?? rows).value;
  const freshness = engine1Freshness(period, fresh.firstIncompleteDate, fresh.dataThrough);
  const warnings = [...freshness.warnings];
  if (rows.value.truncated) {
    warnings.push({ code: 'rows_truncated', message: `engine1 returned more than ${BREAKDOWN_ROW_CAP} rows; only the first ${BREAKDOWN_ROW_CAP} (by clicks) are included.` });
  }
  return {
    rows: rows.value.rows.map((r) => ({ key: r.keys[dimension] ?? '', clicks: r.clicks, impressions: r.impressions, position: r.position })),
    results: daily ? [rows, daily] : [rows],
    dataThrough: freshness.dataThrough,
    warnings,
  };
}

async function engine2Rows(ctx: ReportDeps, cs: ConnectedSource, scope: ReportScope, dimension: 'query' | 'page', filter: FilterAst | undefined) {
  const matches = compileFilter(filter);
  if (dimension === 'query') {
    const result = await ctx.loaders.engine2.queryStats(cs, scope.force);
    const cut = cutWeekly(result.value, scope.period);
    const rows = cut.rows.filter((r) => matches({ query: r.query })).map((r) => ({ key: r.query, clicks: r.clicks, impressions: r.impressions, position: r.position }));
    return { rows, result, warnings: cut.warnings };
  }
  const result = await ctx.loaders.engine2.pageStats(cs, scope.force);
  const cut = cutWeekly(result.value, scope.period);
  const rows = cut.rows.filter((r) => matches({ page: r.page })).map((r) => ({ key: r.page, clicks: r.clicks, impressions: r.impressions, position: r.position }));
  return { rows, result, warnings: cut.warnings };
}

/** By the order metric (rows without a value last, either direction), then clicks, impressions and key, so pages are stable. */
export function sortRows<T extends { key: string; clicks: number; impressions: number }>(rows: readonly T[], order: Order): T[] {
  const sign = order.direction === 'desc' ? -1 : 1;
  const value = (r: T) => (r as unknown as Record<string, number | null | undefined>)[order.metric] ?? null;
  const byMetric = (a: T, b: T) => {
    const [x, y] = [value(a), value(b)];
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (x - y);
  };
  return [...rows].sort((a, b) => byMetric(a, b) || b.clicks - a.clicks || b.impressions - a.impressions || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
