// Cannibalisation: from its day a query's impressions split across several of the site's pages, which take turns
// ranking (day by day the split swings) at a slightly worse best position. The search model gains one atom per
// listed page that does not show the query yet; the day's effects switch them on and the old split off.
import type { DemoSite } from '../catalogue.ts';
import type { CellEffect } from '../data/cube.ts';
import { ANONYMOUS, ctrAt, searchModel, type QueryAtom, type SearchModel } from '../engine1/search-model.ts';
import type { SiteModel } from '../data/site-model.ts';
import { parseIsoDate } from '../data/calendar.ts';
import { pagePath } from './page-path.ts';

type Cannibalisation = { query: string; pages: readonly string[]; from: string };

interface Competition {
  query: string;
  first: number;
  /** The pages' URLs, in the event's order. */
  pages: string[];
  /** The query's atoms before the event, and its total (raw) impression share. */
  before: QueryAtom[];
  share: number;
  position: number;
  /** The engine's whole click mass (share × CTR) before the event: the scale the query's change is measured on. */
  siteMass: number;
}

const cache = new WeakMap<SearchModel, Map<string, { search: SearchModel; competitions: Competition[] }>>();

function competitionsOf(site: DemoSite): Cannibalisation[] {
  return (site.scenario?.search ?? []).filter((e) => e.kind === 'cannibalisation');
}

/** The engine's search model with the atoms the site's cannibalisation events need (the plain one without any). */
export type { Competition };

export function competingSearch(site: DemoSite, model: SiteModel, engine: 'engine1' | 'engine2'): { search: SearchModel; competitions: Competition[] } {
  const base = searchModel(model, engine);
  const events = competitionsOf(site);
  if (!events.length) return { search: base, competitions: [] };
  let byKey = cache.get(base);
  if (!byKey) cache.set(base, (byKey = new Map()));
  const key = JSON.stringify(events.map((e) => [e.query, e.pages, e.from]));
  const hit = byKey.get(key);
  if (hit) return hit;
  const rawTotal = base.queryAtoms.reduce((a, q) => a + q.share, 0);
  const siteMass = base.queryAtoms.reduce((a, q) => a + q.share * q.ctr, 0);
  const queryFamily = base.families[0]!;
  const extraAtoms: QueryAtom[] = [];
  const competitions: Competition[] = [];
  for (const event of events) {
    const q = event.query.toLowerCase();
    const before = base.queryAtoms.filter((a) => a.query !== ANONYMOUS && a.query.toLowerCase() === q);
    if (!before.length) continue; // this engine never shows the query
    const share = before.reduce((a, x) => a + x.share, 0);
    const best = Math.min(...before.map((a) => a.position));
    // Two pages for one query: neither ranks as well as the one did.
    const position = best * 1.25 + 0.5;
    const pages = event.pages.map((p) => model.origin + pagePath(site, p));
    for (const page of pages) {
      if (before.some((a) => a.page === page) || extraAtoms.some((a) => a.query === before[0]!.query && a.page === page)) continue;
      // A new page for the query follows the query's own course, as its other pages do.
      extraAtoms.push({ query: before[0]!.query, page, share: share / pages.length, position, ctr: ctrAt(position), ...(before[0]!.course ? { course: before[0]!.course } : {}) });
    }
    competitions.push({ query: before[0]!.query, first: parseIsoDate(event.from)!, pages, before, share, position, siteMass });
  }
  // Appended after the family was normalised: the new atoms add to it only on the days their effects allow.
  const families = [{ ...queryFamily, atoms: [...queryFamily.atoms, ...extraAtoms.map((a) => ({ share: a.share / rawTotal, values: [a.query, a.page], attrs: { pos: a.position, ctr: a.ctr, ...a.course } }))] }, ...base.families.slice(1)];
  const planted = { search: { families, queryAtoms: [...base.queryAtoms, ...extraAtoms], siteCtr: base.siteCtr }, competitions };
  byKey.set(key, planted);
  return planted;
}

/** How much of the day's query volume a competing page gets: the pages take turns, their weights average to one. */
function turn(day: number, index: number, count: number): number {
  return 1 + 0.6 * Math.sin(2 * Math.PI * (day / 5 + index / count));
}

/** The effects of the site's cannibalisations on one day, and how they move the engine's total clicks. */
export function competitionEffects(competitions: readonly Competition[], day: number): { effects: CellEffect[]; clicks: number } {
  const effects: CellEffect[] = [];
  let clicks = 1;
  for (const c of competitions) {
    const listed = (page: string) => c.pages.indexOf(page);
    const extra = c.pages.filter((p) => !c.before.some((a) => a.page === p));
    if (day < c.first) {
      for (const page of extra) effects.push({ where: [['query', c.query], ['page', page]], factor: 0 });
      continue;
    }
    for (const atom of c.before) {
      const where = [['query', c.query], ['page', atom.page]] as const;
      const i = listed(atom.page);
      if (i < 0) {
        effects.push({ where, factor: 0 });
        continue;
      }
      effects.push({ where, factor: (c.share * turn(day, i, c.pages.length)) / c.pages.length / atom.share });
      effects.push({ where, keys: ['clicks'], factor: ctrAt(c.position) / ctrAt(atom.position) });
      effects.push({ where, keys: ['posSum'], factor: c.position / atom.position });
    }
    for (const page of extra) effects.push({ where: [['query', c.query], ['page', page]], factor: turn(day, listed(page), c.pages.length) });
    // The query's clicks now come at the worse position.
    clicks *= 1 + (c.share * ctrAt(c.position) - c.before.reduce((a, x) => a + x.share * x.ctr, 0)) / c.siteMass;
  }
  return { effects, clicks };
}
