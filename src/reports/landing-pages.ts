// Landing pages: analytics landing pages (sessions, engagement, key events) joined with search pages on
// the normalised path, so a user sees which search traffic turns into engaged visits. Analytics reports paths;
// search pages join on theirs when their host belongs to the site (the project domain, every host an sc-domain:
// property covers, the engine2 site's host), shown as https://<project domain><path>. Pages on other hosts stay
// separate rows, named in a warning. Pages only one side knows keep zeros there.
import type { SearchProviderChoice } from '../domain/request-params.ts';
import { parseFilter } from '../domain/filter.ts';
import { compileFilter } from '../domain/filter-match.ts';
import type { PeriodJson } from '../domain/period.ts';
import { parseLimit, parseOffset, parseOrder } from '../domain/request-params.ts';
import { mergeSearchMetrics } from '../domain/search-combine.ts';
import { normalisePage } from '../domain/search-normalise.ts';
import { hostOf, pathWithinSite, siteHostsOf } from '../domain/site-hosts.ts';
import type { ReportDeps } from './report-deps.ts';
import { findSource, requireSource } from './project-lookup.ts';
import { buildMeta, type Meta, type Warning } from './meta.ts';
import { analyticsReportPolicy } from '../cache/upstream-policy.ts';
import { toDateRanges, toDimensions, toMetrics } from '../providers/analytics/translate.ts';
import { resolveReportScope } from './report-context.ts';
import { combinedSearchRows, sortRows, type SearchBreakdownArgs } from './search-breakdown.ts';

export const LANDING_METRICS = ['sessions', 'engagementRate', 'keyEvents', 'clicks', 'impressions', 'ctr', 'position'] as const;
const ANALYTICS_METRICS = ['sessions', 'engagementRate', 'keyEvents'] as const;
/** Landing pages read from analytics; more are reported as truncated. */
export const LANDING_ROW_CAP = 25_000;

export interface LandingPageRow {
  page: string;
  sessions: number;
  engagementRate: number;
  keyEvents: number;
  clicks: number;
  impressions: number;
  ctr: number;
  position: number | null;
}

export interface LandingPages {
  project: string;
  period: PeriodJson;
  sp: SearchProviderChoice;
  rows: LandingPageRow[];
  totalRows: number;
  limit: number;
  offset: number;
  meta: Meta;
}

export type LandingPagesArgs = Omit<SearchBreakdownArgs, 'dimension'>;

export async function landingPages(ctx: ReportDeps, args: LandingPagesArgs): Promise<LandingPages> {
  const scope = await resolveReportScope(ctx, { ...args, compare: 'none' }, 'none', 'analytics');
  const limit = parseLimit(args.limit ?? undefined);
  const offset = parseOffset(args.offset ?? undefined);
  const order = parseOrder(args.order ?? undefined, LANDING_METRICS);
  const filter = parseFilter(args.filter ?? undefined, 'filter', ['page']);
  const analytics = await requireSource(ctx, scope.project, 'analytics');
  const policy = analyticsReportPolicy(scope.period.end, scope.timezone, scope.now);
  const request = {
    dateRanges: toDateRanges(scope.period),
    dimensions: toDimensions(['landingPage']),
    metrics: toMetrics(ANALYTICS_METRICS),
    orderBys: [{ metric: { metricName: 'sessions' }, desc: true }],
    limit: String(LANDING_ROW_CAP),
  };
  const [report, search] = await Promise.all([
    ctx.loaders.analytics.report(analytics, request, policy, scope.force),
    combinedSearchRows(ctx, scope, args.sp, 'page', undefined, undefined),
  ]);

  const origin = `https://${scope.project.domain}`;
  const searchSites = await Promise.all((['engine1', 'engine2'] as const).map(async (engine) => (await findSource(ctx, scope.project, engine))?.record.siteUrl));
  const site = siteHostsOf(scope.project.domain, searchSites);
  const byPage = new Map<string, LandingPageRow>();
  const empty = (page: string): LandingPageRow => ({ page, sessions: 0, engagementRate: 0, keyEvents: 0, clicks: 0, impressions: 0, ctr: 0, position: null });
  for (const row of report.value.rows) {
    const path = row.dimensions.landingPage ?? '';
    const page = path.startsWith('/') ? normalisePage(origin + path) : path;
    const entry = byPage.get(page) ?? empty(page);
    // Paths that normalise alike (tracking parameters) add up; the engagement rate is session-weighted.
    const sessions = row.metrics.sessions ?? 0;
    const engaged = entry.engagementRate * entry.sessions + (row.metrics.engagementRate ?? 0) * sessions;
    entry.sessions += sessions;
    entry.engagementRate = entry.sessions > 0 ? engaged / entry.sessions : 0;
    entry.keyEvents += row.metrics.keyEvents ?? 0;
    byPage.set(page, entry);
  }
  const unmatchedHosts = new Set<string>();
  for (const row of search.rows) {
    const path = pathWithinSite(site, row.key);
    if (path === undefined) unmatchedHosts.add(hostOf(row.key) ?? row.key);
    const page = path === undefined ? row.key : normalisePage(origin + path);
    const entry = byPage.get(page) ?? empty(page);
    // www and apex (or http and https) copies of one path are one landing page: their search numbers add up.
    const merged = entry.position === null ? row : mergeSearchMetrics([{ ...entry, position: entry.position }, row]);
    Object.assign(entry, { clicks: merged.clicks, impressions: merged.impressions, ctr: merged.ctr, position: merged.position });
    byPage.set(page, entry);
  }

  const matches = compileFilter(filter);
  const rows = sortRows(
    [...byPage.values()].filter((r) => matches({ page: r.page })).map((r) => ({ ...r, key: r.page })),
    order,
  ).map(({ key: _key, ...row }) => row);
  const warnings: Warning[] = [...search.warnings, ...report.value.warnings];
  if (unmatchedHosts.size > 0) {
    const list = [...unmatchedHosts].sort();
    warnings.push({
      code: 'unmatched_hosts',
      message: `Search pages on ${list.join(', ')} are not on the site's hosts (${[...site.hosts, ...site.domains.map((d) => `*.${d}`)].join(', ')}); they are listed as their own rows without analytics numbers.`,
    });
  }
  if (report.value.rowCount > report.value.rows.length) {
    warnings.push({ code: 'rows_truncated', message: `analytics reported ${report.value.rowCount} landing pages; only the top ${report.value.rows.length} by sessions are joined.` });
  }
  return {
    project: scope.project.key,
    period: scope.periodJson,
    sp: search.choice,
    rows: rows.slice(offset, offset + limit),
    totalRows: rows.length,
    limit,
    offset,
    meta: buildMeta({
      results: [report, ...search.results],
      sources: ['analytics', ...search.sources],
      warnings,
      now: scope.now,
      ...(search.dataThrough ? { dataThrough: search.dataThrough } : {}),
    }),
  };
}
