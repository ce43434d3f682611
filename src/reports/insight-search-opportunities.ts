// Search opportunities (domain/insights/search-opportunities.ts) from engine1 rows by query and page for the
// period and the range before it (two requests through the engine1 loader), and engine2's weekly query rows
// (one history call) when sp includes it. The CTR-by-position curve is the site's own, and stated in the answer.
// Like for like: an engine whose history does not reach the range before is left out (and named); when none
// reaches it, nothing is compared with it.
import { defaultBrandTerms } from '../domain/brand-terms.ts';
import { SEARCH_METRIC_NAMES } from '../domain/catalogue.ts';
import { previousRange } from '../domain/compare.ts';
import { comparisonRequest, type ReportRequest } from '../domain/comparison-request.ts';
import type { SearchSource } from '../domain/sources.ts';
import type { DateRange } from '../domain/calendar.ts';
import { addRow, ctrCurve, opportunitySteps, type BrandFilter, type CurvePoint, type Opportunity, type QueryFigures, type SearchInputRow } from '../domain/insights/search-opportunities.ts';
import type { PeriodJson } from '../domain/period.ts';
import { quoteInput } from '../domain/quote.ts';
import { normaliseQuery } from '../domain/search-normalise.ts';
import { invalidParameter } from '../errors/app-error.ts';
import { createTimeSlice, forEachSliced } from '../limits/event-loop-slice.ts';
import type { ReportDeps } from './report-deps.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import { buildMeta, type Meta, type Warning } from './meta.ts';
import { reportPolicy } from '../cache/upstream-policy.ts';
import type { Engine2QueryRow } from '../providers/engine2/normalize.ts';
import { toEngine1Request } from '../providers/engine1/search-request.ts';
import { searchCoverage } from './comparison-history.ts';
import { resolveReportScope, type PeriodArgs } from './report-context.ts';
import { cutWeekly } from './search-engine2.ts';
import { engine1Freshness, resolveSearchSources, settleEngines, sourcesUsed } from './search-sources.ts';

export interface OpportunityArgs extends PeriodArgs {
  sp?: string | null;
  brand?: string | null;
}

export interface SearchOpportunities {
  project: string;
  period: PeriodJson;
  sp: string;
  brand: BrandFilter;
  brandTerms: string[];
  /** The site's CTR by rounded position 1–20, estimated from this period's queries. */
  ctrCurve: CurvePoint[];
  opportunities: Opportunity[];
  meta: Meta;
}

const BRAND_FILTERS: readonly BrandFilter[] = ['all', 'brand', 'nonbrand'];
const PER_KIND = 15;
const ROW_LIMIT = 25_000;

export function parseBrandFilter(raw: string | null | undefined): BrandFilter {
  if (raw === undefined || raw === null || raw === '') return 'all';
  if ((BRAND_FILTERS as readonly string[]).includes(raw)) return raw as BrandFilter;
  throw invalidParameter('brand', `Invalid brand ${quoteInput(raw)}: expected one of ${BRAND_FILTERS.join(', ')}.`);
}

export async function searchOpportunities(ctx: ReportDeps, args: OpportunityArgs): Promise<SearchOpportunities> {
  const scope = await resolveReportScope(ctx, { ...args, compare: 'none' }, 'none');
  const brand = parseBrandFilter(args.brand);
  const { choice, connected, warnings: sourceWarnings } = await resolveSearchSources(ctx, scope.project, args.sp);
  const before = previousRange(scope.period, 'previous');
  const policy = reportPolicy(scope.period.end, scope.project.timezone, scope.now);
  const warnings: Warning[] = [...scope.warnings, ...sourceWarnings];
  const request: ReportRequest = { range: scope.period, dimensions: ['query', 'page'], metrics: SEARCH_METRIC_NAMES, limit: ROW_LIMIT };
  const ask = (r: ReportRequest) => ctx.loaders.engine1.query(connected.engine1!, toEngine1Request(r), policy, scope.force);
  const e1 = connected.engine1 ? Promise.all([ask(request), ask(comparisonRequest(request, before))]) : undefined;
  const e2 = connected.engine2 ? ctx.loaders.engine2.queryStats(connected.engine2, scope.force) : undefined;
  const [r1, r2] = await settleEngines(choice, e1, e2, warnings);
  // Like for like: the engines whose history reaches the range before; none: nothing is compared with it.
  const coverage = searchCoverage(scope.now, { ...(r1 ? { engine1: r1 } : {}), ...(r2 ? { engine2: r2.value } : {}) }, before, 'like_for_like');
  warnings.push(...coverage.warnings);
  const comparing = coverage.covered.length > 0;
  const used = (engine: SearchSource) => !comparing || coverage.covered.includes(engine);
  // Figures per query, added up in slices: the rows by query and page run to tens of thousands per range.
  const current = new Map<string, QueryFigures>();
  const previous = new Map<string, QueryFigures>();
  const slice = createTimeSlice();
  const add = (rows: readonly SearchInputRow[], into: Map<string, QueryFigures>) => forEachSliced(rows, (row) => addRow(into, row), slice);
  const results: CachedResult<unknown>[] = [];
  let dataThrough: string | undefined;
  if (r1 && used('engine1')) {
    const [now, then] = r1;
    results.push(now, then);
    for (const [rows, into] of [[now.value.rows, current], [then.value.rows, previous]] as const) {
      await forEachSliced(rows, (r) => addRow(into, { query: normaliseQuery(r.keys.query ?? ''), page: r.keys.page ?? '', clicks: r.clicks, impressions: r.impressions, position: r.position }), slice);
    }
    const freshness = engine1Freshness(scope.period, now.value.firstIncompleteDate, now.value.dataThrough);
    dataThrough = freshness.dataThrough;
    warnings.push(...freshness.warnings);
  }
  if (r2 && used('engine2')) {
    results.push(r2);
    await add(engine2Rows(r2.value, scope.period, warnings), current);
    await add(engine2Rows(r2.value, before, []), previous);
  }
  // null: the domain's name; an empty list is a site without brand queries.
  const brandTerms = scope.project.brandTerms ?? defaultBrandTerms(scope.project.domain);
  await slice.pause();
  const curve = ctrCurve(current);
  const opportunities: Opportunity[] = [];
  for (const step of opportunitySteps(current, comparing ? previous : undefined, curve, { brandTerms, brand, perKind: PER_KIND })) {
    await slice.pause();
    opportunities.push(...step());
  }
  return {
    project: scope.project.key,
    period: { ...scope.periodJson, previous: { start: before.start, end: before.end } },
    sp: choice,
    brand,
    brandTerms,
    ctrCurve: curve,
    opportunities,
    meta: buildMeta({ results, sources: sourcesUsed({ ...(r1 && used('engine1') ? { engine1: true } : {}), ...(r2 && used('engine2') ? { engine2: true } : {}) }), warnings, now: scope.now, ...(dataThrough ? { dataThrough } : {}) }),
  };
}

/** engine2's weekly query rows of a range, as query-level rows (engine2 does not say which page ranked). */
function engine2Rows(rows: readonly Engine2QueryRow[], range: DateRange, warnings: Warning[]): SearchInputRow[] {
  const cut = cutWeekly(rows, range);
  warnings.push(...cut.warnings);
  return cut.rows.filter((r) => r.position > 0).map((r) => ({ query: normaliseQuery(r.query), clicks: r.clicks, impressions: r.impressions, position: r.position }));
}
