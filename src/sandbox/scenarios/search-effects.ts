// What planted events do to one search engine's data, as whole-number changes of the day's impressions and
// clicks: a shifted GA segment that is search traffic moves the matching rows (Germany → country deu, mobile →
// MOBILE, Organic Search → everything), a page drop the page's rows (and so its queries), and a ranking loss one
// query's clicks through the CTR of its new position. What the event does not reach keeps its numbers.
import type { DemoSite } from '../catalogue.ts';
import type { CellEffect, EffectWhere } from '../data/cube.ts';
import { COUNTRIES } from '../data/geo.ts';
import { segmentShare, type CellTime } from '../data/own-trends.ts';
import { wholeDelta } from '../data/cell-deltas.ts';
import { ANONYMOUS, ctrAt, searchDayTotals, type QueryAtom, type SearchModel } from '../engine1/search-model.ts';
import type { SiteModel } from '../data/site-model.ts';
import { factorOn, inForce, onEngine, type SegmentEvent } from './scenario-events.ts';
import { competitionEffects, type competingSearch } from './competing-pages.ts';
import { pagePath } from './page-path.ts';

type CompetingSearch = ReturnType<typeof competingSearch>;

export type Engine = 'engine1' | 'engine2';

const ENGINE_SOURCE: Record<Engine, string> = { engine1: 'google', engine2: 'bing' };

/** The search conditions a GA segment maps to on one engine ([] = all of it; undefined = not search traffic). */
export function searchSegment(site: DemoSite, event: SegmentEvent, engine: Engine): EffectWhere[] | undefined {
  if (event.kind === 'rate_shift') return undefined; // a rate on the site, not search traffic
  const value = event.value.toLowerCase();
  const source = ENGINE_SOURCE[engine];
  switch (event.dimension) {
    case 'country': {
      const country = COUNTRIES.find((c) => c.name.toLowerCase() === value);
      return country ? [[['country', country.alpha3]]] : undefined;
    }
    case 'continent': {
      const countries = COUNTRIES.filter((c) => c.continent.toLowerCase() === value);
      return countries.length ? countries.map((c) => [['country', c.alpha3]]) : undefined;
    }
    case 'deviceCategory': return [[['device', value.toUpperCase()]]];
    case 'sessionDefaultChannelGroup': return value === 'organic search' ? [[]] : undefined;
    case 'sessionMedium': return value === 'organic' ? [[]] : undefined;
    case 'sessionCampaignName': return value === '(organic)' ? [[]] : undefined;
    case 'sessionSource': return value === source ? [[]] : undefined;
    case 'sessionSourceMedium': return value === `${source} / organic` ? [[]] : undefined;
    case 'landingPage': return [[['page', `https://${site.domain}${event.value}`]]];
    default: return undefined; // city, browser, operating system: no search dimension to follow
  }
}

const atomCache = new WeakMap<SearchModel, Map<string, QueryAtom[]>>();

/** The query's atoms (one per page showing it) on this engine (memoised: every day of a report asks). */
export function atomsOf(search: SearchModel, query: string): QueryAtom[] {
  const q = query.toLowerCase();
  let byQuery = atomCache.get(search);
  if (!byQuery) atomCache.set(search, (byQuery = new Map()));
  let atoms = byQuery.get(q);
  if (!atoms) byQuery.set(q, (atoms = search.queryAtoms.filter((a) => a.query !== ANONYMOUS && a.query.length === q.length && a.query.toLowerCase() === q)));
  return atoms;
}

interface Change {
  where: EffectWhere;
  factor: number;
  /** Clicks only (a worse position keeps the impressions); otherwise impressions and clicks. */
  clicksOnly?: boolean;
}

/** The planted changes of one day on one engine, and the position factors of ranking losses (means, multiplied). */
function dayChanges(site: DemoSite, search: SearchModel, engine: Engine, day: number): { changes: Change[]; positions: CellEffect[] } {
  const scenario = site.scenario;
  const changes: Change[] = [];
  const positions: CellEffect[] = [];
  if (!scenario) return { changes, positions };
  for (const event of scenario.segments) {
    if (!inForce(event, day)) continue;
    for (const where of searchSegment(site, event, engine) ?? []) changes.push({ where, factor: factorOn(event, day) });
  }
  for (const event of scenario.search) {
    if (!inForce(event, day) || !onEngine(event, engine)) continue;
    if (event.kind === 'page_drop') changes.push({ where: [['page', `https://${site.domain}${pagePath(site, event.page)}`]], factor: event.factor });
    if (event.kind !== 'ranking_loss') continue;
    for (const atom of atomsOf(search, event.query)) {
      const where: EffectWhere = [['query', atom.query], ['page', atom.page]];
      changes.push({ where, factor: ctrAt(event.position) / ctrAt(atom.position), clicksOnly: true });
      positions.push({ where, keys: ['posSum'], factor: event.position / atom.position });
    }
  }
  return { changes, positions };
}

/** The planted effects of one day on one engine, given the day's unplanted impressions and clicks. */
export function searchDayEffects(site: DemoSite, search: SearchModel, engine: Engine, day: number, base: { impressions: number; clicks: number }): CellEffect[] {
  const { changes, positions } = dayChanges(site, search, engine, day);
  if (!changes.length) return positions;
  const time: CellTime = { day, span: 1 };
  // Changes on one place multiply; distinct places add.
  const byKey = new Map<string, Change>();
  for (const c of changes) {
    const key = JSON.stringify([c.where, c.clicksOnly ?? false]);
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, factor: seen.factor * c.factor } : c);
  }
  const effects: CellEffect[] = [...byKey.values()].map(({ where, factor, clicksOnly }) => {
    const what = `${engine}|${JSON.stringify(where)}`;
    const clicks = wholeDelta(base.clicks * segmentShare(search.families, where, time, ['ctr']) * (factor - 1), day, `${what}|clicks`);
    const delta: Record<string, number> = clicksOnly ? { clicks } : { impressions: wholeDelta(base.impressions * segmentShare(search.families, where, time) * (factor - 1), day, `${what}|impressions`), clicks };
    return { where, factor, delta };
  });
  return [...effects, ...positions];
}

export interface PlantedSearchDay {
  /** The day's totals with the planted changes. */
  impressions: number;
  clicks: number;
  effects?: CellEffect[];
}

/** A day's impressions and clicks of one engine and search type with the planted events applied. */
export function plantedSearchDay(site: DemoSite, model: SiteModel, planted: CompetingSearch, engine: Engine, type: string, day: number): PlantedSearchDay {
  const { search, competitions } = planted;
  const base = searchDayTotals(model, search, engine, type, day);
  const competing = competitionEffects(competitions, day);
  if (!site.scenario && !competing.effects.length) return base;
  // Competing pages split the query's impressions (the total stays) and lose clicks to their worse position.
  const unplanted = { impressions: base.impressions, clicks: Math.round(base.clicks * competing.clicks) };
  const effects = [...searchDayEffects(site, search, engine, day, unplanted), ...competing.effects];
  if (!effects.length) return base;
  const totals = { ...unplanted };
  for (const e of effects) {
    totals.impressions += e.delta?.impressions ?? 0;
    totals.clicks += e.delta?.clicks ?? 0;
  }
  return { ...totals, effects };
}

/** A planted day scaled to a part of it (an hour, a day still filling in): totals and deltas rounded alike. */
export function scalePlantedDay(day: PlantedSearchDay, fraction: number): PlantedSearchDay {
  if (!day.effects) return { impressions: Math.round(day.impressions * fraction), clicks: Math.round(day.clicks * fraction) };
  const effects = day.effects.map((e) => (e.delta ? { ...e, delta: Object.fromEntries(Object.entries(e.delta).map(([k, v]) => [k, Math.round(v * fraction)])) } : e));
  const base = { impressions: day.impressions, clicks: day.clicks };
  for (const e of day.effects) {
    base.impressions -= e.delta?.impressions ?? 0;
    base.clicks -= e.delta?.clicks ?? 0;
  }
  const out = { impressions: Math.round(base.impressions * fraction), clicks: Math.round(base.clicks * fraction) };
  for (const e of effects) {
    out.impressions += e.delta?.impressions ?? 0;
    out.clicks += e.delta?.clicks ?? 0;
  }
  return { ...out, effects };
}
