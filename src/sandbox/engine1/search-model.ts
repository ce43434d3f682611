// The search side of a site (engine1 and engine2 share it): queries mapped to the site's pages, each with a
// position and a CTR, and the families (country, device, search appearance) impressions split over.
import type { Atom, Family } from '../data/cube.ts';
import { COUNTRIES, homeCountry } from '../data/geo.ts';
import { gaussian, hashString, unit } from '../data/hash.ts';
import type { SiteModel } from '../data/site-model.ts';
import { zipfShares } from '../data/site-model.ts';
import { organicSessionShare } from '../data/traffic.ts';
import { countryCourse, deviceCourse, queryCourse, type Course } from '../data/segment-courses.ts';

/** The query value of impressions Search Console anonymises (dropped whenever query is grouped or filtered). */
export const ANONYMOUS = '';
/** The searchAppearance value of plain results (no rich-result feature; never reported as a row). */
export const PLAIN_RESULT = '';

export interface QueryAtom {
  query: string;
  page: string;
  share: number;
  position: number;
  ctr: number;
  /** The top queries' own course over time (the rest follow the site). */
  course?: Course;
}

export interface SearchModel {
  families: Family[];
  queryAtoms: QueryAtom[];
  /** Impression-weighted CTR of the whole site (clicks = impressions × this × noise). */
  siteCtr: number;
}

/** CTR for an average position: steep at the top, long flat tail. */
export function ctrAt(position: number): number {
  return Math.min(0.6, 0.32 / Math.pow(Math.max(1, position), 0.95));
}

const APPEARANCES: Record<string, [string, number, number][]> = {
  shop: [['PRODUCT_SNIPPETS', 0.06, 1.15], ['MERCHANT_LISTINGS', 0.05, 1.1], ['REVIEW_SNIPPET', 0.02, 1.2], ['VIDEO', 0.005, 0.9]],
  content: [['RECIPE_FEATURE', 0.08, 1.25], ['FAQ_RICH_RESULT', 0.02, 1.1], ['VIDEO', 0.01, 0.9], ['AMP_TOP_STORIES', 0.005, 1.3]],
  saas: [['FAQ_RICH_RESULT', 0.03, 1.1], ['REVIEW_SNIPPET', 0.01, 1.15]],
};

function pickPage(cumulative: number[], u: number): number {
  let lo = 0, hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const cache = new WeakMap<SiteModel, Map<string, SearchModel>>();

/**
 * Rescales each page's queries so the page's share of clicks is its search share (which follows its landing
 * share): a page's search clicks then stay in proportion to the sessions that land on it, whichever queries the
 * draw gave it. Queries keep their relative volumes within a page.
 */
function balanceClicksByPage(atoms: QueryAtom[], pages: { url: string; share: number }[]): void {
  const mass = new Map<string, number>();
  for (const a of atoms) mass.set(a.page, (mass.get(a.page) ?? 0) + a.share * a.ctr);
  const total = [...mass.values()].reduce((x, y) => x + y, 0);
  const wanted = new Map(pages.map((p) => [p.url, p.share]));
  for (const a of atoms) a.share *= ((wanted.get(a.page) ?? 0) * total) / mass.get(a.page)!;
}

/**
 * Builds the search model of one engine. `variant` changes the query volumes and keeps a subset of queries
 * (engine2 overlaps engine1's vocabulary with different numbers); pages are always the site's own.
 */
export function searchModel(model: SiteModel, variant: 'engine1' | 'engine2'): SearchModel {
  let byVariant = cache.get(model);
  if (!byVariant) cache.set(model, (byVariant = new Map()));
  const cached = byVariant.get(variant);
  if (cached) return cached;
  const seed = model.seed ^ hashString(variant);
  const pages = model.pages;
  const cumulative: number[] = [];
  pages.reduce((acc, p) => (cumulative.push(acc + p.searchShare), acc + p.searchShare), 0);
  const queries = model.queries;
  const keep = variant === 'engine1' ? queries.map(() => true) : queries.map((_, i) => i === 0 || unit(model.seed, 0xb1, i) < 0.72);
  const kept = queries.filter((_, i) => keep[i]);
  const shares = zipfShares(kept.length, 1.0, seed, variant === 'engine1' ? 0.3 : 0.7);
  const anonymousShare = model.site.size === 'small' ? 0.32 : 0.2;
  const queryAtoms: QueryAtom[] = [];
  kept.forEach((query, rank) => {
    const qi = hashString(query);
    const brand = rank === 0;
    const position = brand ? 1.15 : Math.min(80, 1.4 + 26 * Math.pow(unit(model.seed, qi, 3), 1.7) + 3 * Math.log10(rank + 1) + (variant === 'engine2' ? 0.8 * gaussian(seed, qi) : 0));
    const ctr = ctrAt(position) * (brand ? 1.5 : 1);
    const share = shares[rank]! * (1 - anonymousShare);
    const first = brand ? 0 : pickPage(cumulative, unit(model.seed, qi, 5));
    const course = queryCourse(model.seed, query, rank);
    const own = course ? { course } : {};
    if (rank < kept.length * 0.05 && pages.length > 1) {
      const second = pickPage(cumulative, unit(model.seed, qi, 6));
      if (second !== first) {
        queryAtoms.push({ query, page: model.origin + pages[first]!.path, share: share * 0.72, position, ctr, ...own });
        queryAtoms.push({ query, page: model.origin + pages[second]!.path, share: share * 0.28, position: position * 1.6, ctr: ctrAt(position * 1.6), ...own });
        return;
      }
    }
    queryAtoms.push({ query, page: model.origin + pages[first]!.path, share, position, ctr, ...own });
  });
  for (const p of pages) {
    if (p.searchShare > 0) queryAtoms.push({ query: ANONYMOUS, page: model.origin + p.path, share: anonymousShare * p.searchShare, position: 9, ctr: ctrAt(9) });
  }
  balanceClicksByPage(queryAtoms, pages.map((p) => ({ url: model.origin + p.path, share: p.searchShare })));
  const home = homeCountry(model.site.timezone);
  // Countries and devices wander as the same segments do in GA (same seeds): Germany's search follows Germany.
  const countries: Atom[] = COUNTRIES.map((c, i) => ({
    share: c.weight * (c.alpha2 === home ? 7 : 1) * (0.5 + unit(seed, 300 + i)),
    values: [c.alpha3],
    attrs: { pos: c.alpha2 === home ? 0.92 : 1.08, ctr: c.alpha2 === home ? 1.1 : 0.88, ...countryCourse(model.seed, i, c.name, c.weight * (c.alpha2 === home ? 9 : 1)) },
  }));
  const devices: Atom[] = [
    { share: model.site.kind === 'saas' ? 0.62 : 0.38, values: ['DESKTOP'], attrs: { pos: 0.96, ctr: 1.06, ...deviceCourse(model.seed, 'desktop') } },
    { share: model.site.kind === 'saas' ? 0.35 : 0.57, values: ['MOBILE'], attrs: { pos: 1.04, ctr: 0.95, ...deviceCourse(model.seed, 'mobile') } },
    { share: 0.05, values: ['TABLET'], attrs: { pos: 1.0, ctr: 0.92, ...deviceCourse(model.seed, 'tablet') } },
  ];
  const appearanceList = APPEARANCES[model.site.kind] ?? [];
  const plain = 1 - appearanceList.reduce((a, x) => a + x[1], 0);
  const appearances: Atom[] = [
    { share: plain, values: [PLAIN_RESULT], attrs: { ctr: 1, pos: 1 } },
    ...appearanceList.map(([name, share, ctr]) => ({ share, values: [name], attrs: { ctr, pos: 0.9 } })),
  ];
  const normalise = (atoms: Atom[]) => {
    const sum = atoms.reduce((a, x) => a + x.share, 0);
    return atoms.map((a) => ({ ...a, share: a.share / sum }));
  };
  const qpAtoms: Atom[] = queryAtoms.map((q) => ({ share: q.share, values: [q.query, q.page], attrs: { pos: q.position, ctr: q.ctr, ...q.course } }));
  const families: Family[] = [
    { key: 'query', dims: ['query', 'page'], atoms: normalise(qpAtoms) },
    { key: 'country', dims: ['country'], atoms: normalise(countries) },
    { key: 'device', dims: ['device'], atoms: normalise(devices) },
    { key: 'appearance', dims: ['searchAppearance'], atoms: normalise(appearances) },
  ];
  const mean = (f: Family, attr: string) => f.atoms.reduce((a, x) => a + x.share * (x.attrs?.[attr] ?? 1), 0);
  const siteCtr = families.reduce((acc, f) => acc * mean(f, 'ctr'), 1);
  const result = { families, queryAtoms, siteCtr };
  byVariant.set(variant, result);
  return result;
}

const TYPE_FACTOR: Record<string, number> = { web: 1, image: 0.16, video: 0.04, news: 0.02, discover: 0.09, googleNews: 0.01 };

/**
 * How the site's positions move on a day: a slow seasonal drift (±5% over about half a year) plus bounded daily
 * noise; each query also moves on its own around this (the report's per-row jitter).
 */
export function positionDrift(model: SiteModel, day: number): number {
  const phase = unit(model.seed, 0x9d) * Math.PI * 2;
  return (1 + 0.05 * Math.sin((2 * Math.PI * day) / 190 + phase)) * Math.exp(Math.max(-0.08, Math.min(0.08, 0.03 * gaussian(model.seed, day, 43))));
}

/**
 * Web clicks per GA organic session from the same engine: close to one, a little under (consent banners, fast
 * bounces and bots GA never sees), a per-site constant.
 */
function clicksPerOrganicSession(model: SiteModel, variant: 'engine1' | 'engine2'): number {
  return 0.68 + 0.27 * unit(model.seed, 0x5c, variant === 'engine1' ? 1 : 2);
}

/**
 * Daily impressions and clicks of one engine and search type (before any partial-day scaling), tied to GA: web
 * clicks follow the day's Organic Search sessions from that engine (google for engine1, bing for engine2).
 */
export function searchDayTotals(model: SiteModel, search: SearchModel, variant: 'engine1' | 'engine2', type: string, day: number): { impressions: number; clicks: number } {
  const organic = (model.dailyTotals(day).sessions ?? 0) * organicSessionShare(variant === 'engine1' ? 'google' : 'bing');
  const webImpressions = (organic * clicksPerOrganicSession(model, variant)) / search.siteCtr;
  const impressions = Math.round(webImpressions * (TYPE_FACTOR[type] ?? 1) * Math.exp(0.05 * gaussian(model.seed, day, 41)));
  const typeCtr = type === 'discover' ? 1.5 : type === 'image' ? 0.25 : 1;
  const clicks = Math.round(impressions * search.siteCtr * typeCtr * Math.exp(0.06 * gaussian(model.seed, day, 42)));
  return { impressions, clicks: Math.min(clicks, impressions) };
}
