// Search summary: clicks, impressions, CTR and position of a period per engine and combined, compared
// with the previous period by default. One engine1 call (daily rows spanning both ranges, split locally) and one
// engine2 history call (daily site traffic, cut locally) however the comparison is set.
import type { SearchProviderChoice } from '../domain/request-params.ts';
import { rangeLength, type DateRange } from '../domain/calendar.ts';
import { coveredPrevious, type Coverage } from '../domain/history.ts';
import type { PeriodJson } from '../domain/period.ts';
import { mergeSearchMetrics } from '../domain/search-combine.ts';
import type { SearchSource } from '../domain/sources.ts';
import type { ReportDeps } from './report-deps.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import { buildMeta, type Meta, type Warning } from './meta.ts';
import { reportPolicy } from '../cache/upstream-policy.ts';
import type { Engine1Result } from '../loaders/engine1-loader.ts';
import type { Engine2TrafficRow } from '../providers/engine2/normalize.ts';
import { resolveReportScope, type PeriodArgs } from './report-context.ts';
import { cutDaily, withinRange } from './search-engine2.ts';
import { searchCoverage } from './comparison-history.ts';
import {
  engine1Freshness,
  figuresOf,
  mergeFigures,
  resolveSearchSources,
  settleEngines,
  sourcesUsed,
  toFiguresJson,
  type FiguresJson,
  type SearchFigures,
} from './search-sources.ts';

export interface SearchArgs extends PeriodArgs {
  sp?: string | null;
}

export interface SearchSummary {
  project: string;
  period: PeriodJson;
  sp: SearchProviderChoice;
  totals: FiguresJson;
  byProvider: Partial<Record<SearchSource, FiguresJson>>;
  meta: Meta;
}

export const ENGINE2_NO_POSITION: Warning = {
  code: 'position_unavailable',
  message: 'engine2 reports site-wide clicks and impressions without an average position; the combined position is engine1\'s.',
};

export async function searchSummary(ctx: ReportDeps, args: SearchArgs): Promise<SearchSummary> {
  const scope = await resolveReportScope(ctx, args, 'previous');
  const { choice, connected, warnings: sourceWarnings } = await resolveSearchSources(ctx, scope.project, args.sp);
  const { period, previous } = scope;
  const ranges: DateRange[] = previous ? [period, previous] : [period];
  const span: DateRange = { start: previous?.start ?? period.start, end: period.end };
  const policy = reportPolicy(period.end, scope.project.timezone, scope.now);

  const e1 = connected.engine1
    ? ctx.loaders.engine1.query(connected.engine1, dailyRequest(span), policy, scope.force)
    : undefined;
  const e2 = connected.engine2 ? ctx.loaders.engine2.trafficStats(connected.engine2, scope.force) : undefined;
  const warnings: Warning[] = [...scope.warnings, ...sourceWarnings];
  const [r1, r2] = await settleEngines(choice, e1, e2, warnings);
  const perProvider: Partial<Record<SearchSource, SearchFigures[]>> = {};
  let dataThrough: string | undefined;
  if (r1) {
    perProvider.engine1 = ranges.map((range) => engine1Figures(r1.value, range));
    const freshness = engine1Freshness(period, r1.value.firstIncompleteDate, r1.value.dataThrough);
    dataThrough = freshness.dataThrough;
    warnings.push(...freshness.warnings);
  }
  if (r2) {
    perProvider.engine2 = ranges.map((range) => engine2Figures(r2.value, range));
    warnings.push(...cutDaily(r2.value, period).warnings, ENGINE2_NO_POSITION);
  }

  const coverage = searchCoverage(scope.now, { ...(r1 ? { engine1: r1.value } : {}), ...(r2 ? { engine2: r2.value } : {}) }, previous, 'null');
  warnings.push(...coverage.warnings);
  const { byProvider, totals } = compareEngines(perProvider, coverage);
  const results: CachedResult<unknown>[] = [r1, r2].filter((r) => r !== undefined);
  return {
    project: scope.project.key,
    period: scope.periodJson,
    sp: choice,
    totals,
    byProvider,
    meta: buildMeta({ results, sources: sourcesUsed(perProvider), warnings, now: scope.now, ...(dataThrough ? { dataThrough } : {}) }),
  };
}

/**
 * Each engine compared with its own previous figures when its history covers the range, else with null. The
 * combined totals compare like for like: only when every engine that answered covers the range; otherwise they are
 * null (the engines that do cover it keep their own comparison under byProvider), never a sum that counts a
 * missing range as 0.
 */
function compareEngines(perProvider: Partial<Record<SearchSource, SearchFigures[]>>, coverage: Coverage): { byProvider: Partial<Record<SearchSource, FiguresJson>>; totals: FiguresJson } {
  const used = sourcesUsed(perProvider);
  const comparing = coverage.range !== undefined;
  const byProvider: Partial<Record<SearchSource, FiguresJson>> = {};
  for (const source of used) {
    const [current, prev] = perProvider[source]!;
    byProvider[source] = toFiguresJson(current!, comparing ? coveredPrevious(coverage, source, prev!) : undefined);
  }
  const combinedOf = (i: number) => mergeFigures(used.map((s) => perProvider[s]![i]!));
  const totals = toFiguresJson(combinedOf(0), comparing ? (coverage.uncovered.length > 0 ? null : combinedOf(1)) : undefined);
  return { byProvider, totals };
}

/** engine1 rows per day of a range (dates are the provider's Pacific days; see README). */
export function dailyRequest(range: DateRange) {
  return { startDate: range.start, endDate: range.end, dimensions: ['date'], rowLimit: rangeLength(range) };
}

export function engine1Figures(result: Engine1Result, range: DateRange): SearchFigures {
  const rows = result.rows.filter((r) => (r.keys.date ?? '') >= range.start && (r.keys.date ?? '') <= range.end);
  return rows.length === 0 ? { clicks: 0, impressions: 0, ctr: 0, position: null } : figuresOf(mergeSearchMetrics(rows));
}

export function engine2Figures(rows: readonly Engine2TrafficRow[], range: DateRange): SearchFigures {
  return mergeFigures(withinRange(rows, range).map((r) => ({ clicks: r.clicks, impressions: r.impressions, position: null })));
}
