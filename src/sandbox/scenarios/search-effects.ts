// What planted events do to one search engine's data: a shifted GA segment that is search traffic moves the
// matching impressions and clicks (Germany → country deu, mobile → MOBILE, Organic Search → everything), and a
// ranking loss moves one query to a worse position, with the CTR that position gets.
import type { DemoSite } from '../catalogue.ts';
import type { CellEffect, EffectWhere } from '../data/cube.ts';
import { weightedMatch } from '../data/cube.ts';
import { COUNTRIES } from '../data/geo.ts';
import { ANONYMOUS, ctrAt, searchDayTotals, type QueryAtom, type SearchModel } from '../engine1/search-model.ts';
import type { SiteModel } from '../data/site-model.ts';
import { eventDays, type SearchEvent, type SegmentEvent } from './scenario-events.ts';
import { competitionEffects, type competingSearch } from './competing-pages.ts';

type CompetingSearch = ReturnType<typeof competingSearch>;

export type Engine = 'engine1' | 'engine2';

const ENGINE_SOURCE: Record<Engine, string> = { engine1: 'google', engine2: 'bing' };

/** The search conditions a GA segment maps to on one engine ([] = all of it; undefined = not search traffic). */
export function searchSegment(site: DemoSite, event: SegmentEvent, engine: Engine): EffectWhere[] | undefined {
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

const active = (event: SegmentEvent | SearchEvent, day: number): boolean => {
  const { first, last } = eventDays(event);
  return day >= first && day <= last;
};

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

/** The planted effects of one day on one engine. */
export function searchDayEffects(site: DemoSite, search: SearchModel, engine: Engine, day: number): CellEffect[] {
  const scenario = site.scenario;
  if (!scenario) return [];
  const effects: CellEffect[] = [];
  for (const event of scenario.segments) {
    if (!active(event, day)) continue;
    for (const where of searchSegment(site, event, engine) ?? []) effects.push({ where, factor: event.factor });
  }
  for (const event of scenario.search) {
    if (event.kind !== 'ranking_loss' || !active(event, day)) continue;
    for (const atom of atomsOf(search, event.query)) {
      const where: EffectWhere = [['query', atom.query], ['page', atom.page]];
      effects.push({ where, keys: ['clicks'], factor: ctrAt(event.position) / ctrAt(atom.position) });
      effects.push({ where, keys: ['posSum'], factor: event.position / atom.position });
    }
  }
  return effects;
}

const shareCache = new WeakMap<SearchModel, Map<string, { impressions: number; clicks: number }>>();

/** The share of the engine's impressions and clicks an effect's conditions hold. */
function shares(search: SearchModel, where: EffectWhere): { impressions: number; clicks: number } {
  let byWhere = shareCache.get(search);
  if (!byWhere) shareCache.set(search, (byWhere = new Map()));
  const key = JSON.stringify(where);
  let hit = byWhere.get(key);
  if (!hit) byWhere.set(key, (hit = { impressions: weightedMatch(search.families, where), clicks: weightedMatch(search.families, where, 'ctr') }));
  return hit;
}

/** How a day's effects move the engine's total impressions and clicks (the cells split the moved totals). */
export function searchTotalsFactor(search: SearchModel, effects: readonly CellEffect[]): { impressions: number; clicks: number } {
  let impressions = 1, clicks = 1;
  for (const effect of effects) {
    const s = shares(search, effect.where);
    if (!effect.keys) impressions *= 1 + s.impressions * (effect.factor - 1);
    if (!effect.keys || effect.keys.includes('clicks')) clicks *= 1 + s.clicks * (effect.factor - 1);
  }
  return { impressions, clicks };
}

/** A day's impressions and clicks of one engine and search type with the planted events applied. */
export function plantedSearchDay(site: DemoSite, model: SiteModel, planted: CompetingSearch, engine: Engine, type: string, day: number): { impressions: number; clicks: number; effects?: CellEffect[] } {
  const { search, competitions } = planted;
  const base = searchDayTotals(model, search, engine, type, day);
  const effects = searchDayEffects(site, search, engine, day);
  const competing = competitionEffects(competitions, day);
  if (!effects.length && !competing.effects.length) return base;
  const f = searchTotalsFactor(search, effects);
  const impressions = Math.round(base.impressions * f.impressions);
  // Competing pages split the query's impressions (the total stays) and lose clicks to their worse position.
  return { impressions, clicks: Math.min(impressions, Math.round(base.clicks * f.clicks * competing.clicks)), effects: [...effects, ...competing.effects] };
}
