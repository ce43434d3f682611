// Plans the search cases: a query losing its ranking on both engines or on engine2 alone, a page dropping with
// the queries it ranks for (the echo case), and two pages competing for a query. Each loss is asked about twice:
// as a change of clicks (the query, the engine or the page must be the first driver) and as a search opportunity
// (which should come first of all opportunities, being the largest loss planted).
import { addDays, type IsoDate } from '../../src/domain/calendar.ts';
import { customPeriod, round, type Check, type EvalCase, type PlantedEvent } from './cases.ts';
import type { SiteBaseline, SiteMix } from './plan.ts';
import type { Random } from './random.ts';

export interface QueryBaseline {
  query: string;
  clicks: number;
  impressions: number;
  position: number;
  /** The site's pages ranking for it, as paths, most clicks first. */
  pages: string[];
  /** Whether engine2 shows it too. */
  engine2: boolean;
}

export const SEARCH_DAYS = 14;
/** A lost query or page carries at least this share of the site's clicks, so it is a cause worth naming. */
export const MIN_QUERY_SHARE = 0.012;
export const MIN_PAGE_SHARE = 0.03;
const LOSS_KINDS = ['losing_clicks', 'lost_query'];

function searchStart(random: Random, anchor: IsoDate): IsoDate {
  return addDays(anchor, -(SEARCH_DAYS - 1) - random.int(0, 20));
}

const period = (from: IsoDate) => customPeriod(from, addDays(from, SEARCH_DAYS - 1));

export function planSearchCases(site: SiteBaseline, mix: SiteMix, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const totalClicks = site.queries.reduce((sum, q) => sum + q.clicks, 0);
  const big = site.queries.filter((q) => q.position <= 8 && q.clicks >= Math.max(20, totalClicks * MIN_QUERY_SHARE));
  const used = new Set<string>();
  const take = (candidates: typeof big, count: number) => random.shuffle(candidates.filter((q) => !used.has(q.query))).slice(0, count).map((q) => (used.add(q.query), q));
  const out: Omit<EvalCase, 'id'>[] = [];
  for (const q of take(big, mix.queryLosses)) {
    const event: PlantedEvent = { kind: 'ranking_loss', site: site.siteUrl, query: q.query, from: searchStart(random, anchor), position: random.int(11, 15) };
    out.push(lossCase(site, 'query loss', event, [{ dimension: 'query', value: q.query }], { query: q.query }, q.clicks / totalClicks));
  }
  if (site.engine2) {
    for (const q of take(big.filter((x) => x.engine2), mix.engine2Losses)) {
      const event: PlantedEvent = { kind: 'ranking_loss', site: site.siteUrl, query: q.query, from: searchStart(random, anchor), position: random.int(12, 20), engine: 'engine2' };
      out.push(lossCase(site, 'engine2-only loss', event, [{ dimension: 'engine', value: 'engine2' }], { query: q.query }));
    }
  }
  const pageClicks = site.pages.reduce((sum, p) => sum + p.clicks, 0);
  const pages = site.pages.filter((p) => p.clicks >= pageClicks * MIN_PAGE_SHARE);
  for (const p of random.shuffle(pages).slice(0, mix.pageDrops)) {
    const event: PlantedEvent = { kind: 'page_drop', site: site.siteUrl, page: p.page, from: searchStart(random, anchor), factor: random.factor(0.3, 0.5) };
    out.push(lossCase(site, 'page drop (echo)', event, [{ dimension: 'page', value: p.page }], { page: p.page }, p.clicks / pageClicks));
  }
  out.push(...planCannibalisations(site, mix.cannibalisations, random, anchor));
  return out;
}

function lossCase(site: SiteBaseline, family: EvalCase['family'], event: PlantedEvent & { from: IsoDate }, truths: { dimension: string; value: string }[], target: { query?: string; page?: string }, share?: number): Omit<EvalCase, 'id'> {
  const checks: Check[] = [
    { insight: 'changes', period: period(event.from), metric: 'clicks', truths, sp: 'all' },
    { insight: 'search', period: period(event.from), target: { kinds: LOSS_KINDS, ...target } },
  ];
  return { project: site.project, family, events: [event], ...(share === undefined ? {} : { effect: -round(share) }), checks };
}

/** Queries with many impressions; a second page of the site starts competing with the one that ranks. */
function planCannibalisations(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const candidates = site.queries.filter((q) => q.pages.length > 0 && q.position <= 10 && q.impressions >= 200);
  const out: Omit<EvalCase, 'id'>[] = [];
  for (const q of random.shuffle(candidates).slice(0, count)) {
    const first = q.pages[0] as string;
    const others = site.pages.map((p) => p.page).filter((p) => p !== first && !q.pages.includes(p)).slice(0, 20);
    if (others.length === 0) continue;
    const pages: [string, string] = [first, random.pick(others)];
    const from = searchStart(random, anchor);
    out.push({
      project: site.project, family: 'cannibalisation',
      events: [{ kind: 'cannibalisation', site: site.siteUrl, query: q.query, pages, from }],
      checks: [{ insight: 'search', period: period(from), target: { kinds: ['cannibalisation'], query: q.query, pages } }],
    });
  }
  return out;
}
