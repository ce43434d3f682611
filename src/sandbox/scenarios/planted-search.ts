// The search side of planted events, for engine1 and engine2 alike: GA segment shifts that are search traffic
// (a country, a device, a landing page, Organic Search itself) scale the same segment's impressions and clicks;
// a ranking loss moves a query's position and CTR (and halves its impressions once it falls off page one); a
// cannibalisation splits a query over several pages at a worse position. GA sees the clicks a ranking loss
// costs as fewer sessions landing on the query's pages.
import type { DemoSite } from '../catalogue.ts';
import type { Atom, ComboTable, Family } from '../data/cube.ts';
import { parseIsoDate } from '../data/calendar.ts';
import { COUNTRIES } from '../data/geo.ts';
import type { SiteModel } from '../data/site-model.ts';
import { organicSessionShare } from '../data/traffic.ts';
import { ctrAt, searchDayTotals, searchModel, type SearchModel } from '../engine1/search-model.ts';
import { plantFamilies, type AtomEffect, type CellMultipliers } from './atom-effects.ts';
import { pageUrl, type ScenarioEvent } from './scenario-events.ts';

export type Engine = 'engine1' | 'engine2';

/** Below page one a result is seen far less often. */
const OFF_PAGE_ONE_IMPRESSIONS = 0.5;
/** How much worse the competing pages rank than the query's own page did. */
const CANNIBALISED_POSITION = 1.25;

export interface PlantedSearch {
  search: SearchModel;
  /** A day's impressions and clicks with the planted events. */
  dayTotals(type: string, day: number): { impressions: number; clicks: number };
  /** Per-combination multipliers of a report cell spanning `days` (undefined: nothing planted). */
  cell(table: ComboTable, days: readonly number[], type: string): CellMultipliers | undefined;
  /** Share of impressions, CTR and position of some query-family atoms on a day. */
  atomsOn(atoms: readonly number[], day: number): { share: number; ctr: number; pos: number };
}

const cache = new WeakMap<SiteModel, Map<Engine, PlantedSearch>>();

/** The search model of one engine with the site's planted events (the plain model when there are none). */
export function plantedSearch(model: SiteModel, engine: Engine): PlantedSearch {
  let byEngine = cache.get(model);
  if (!byEngine) cache.set(model, (byEngine = new Map()));
  let entry = byEngine.get(engine);
  if (!entry) byEngine.set(engine, (entry = build(model, engine)));
  return entry;
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const atomsWhere = (family: Family, test: (atom: Atom) => boolean) => new Set(family.atoms.flatMap((a, i) => (test(a) ? [i] : [])));
const fromDay = (date: string) => parseIsoDate(date)!;

function build(model: SiteModel, engine: Engine): PlantedSearch {
  const baseline = model.baseline ?? model;
  const base = searchModel(baseline, engine);
  const events = model.site.scenario && model.baseline ? planted(model) : [];
  if (events.length === 0) {
    const plain = plantFamilies(base.families, []);
    return { search: base, dayTotals: (type, day) => searchDayTotals(baseline, base, engine, type, day), cell: () => undefined, atomsOn: (atoms, day) => plain.atomsOn('query', atoms, day) };
  }
  const baseCount = base.families[0]!.atoms.length;
  const { search, competing } = withCompetingPages(base, events, model.site);
  const effects = searchEffects(search, events, model.site, baseCount, competing);
  const plant = plantFamilies(search.families, effects, new Map([['query', baseCount]]));
  const dayTotals = (type: string, day: number) => {
    const t = searchDayTotals(baseline, base, engine, type, day);
    const f = plant.day(day);
    const impressions = Math.round(t.impressions * f.w);
    return { impressions, clicks: Math.min(impressions, Math.round(t.clicks * f.clicks)) };
  };
  return {
    search,
    dayTotals,
    cell: (table, days, type) => plant.cell(table, days, (d) => searchDayTotals(baseline, base, engine, type, d).impressions),
    atomsOn: (atoms, day) => plant.atomsOn('query', atoms, day),
  };
}

function planted(model: SiteModel): ScenarioEvent[] {
  return [...model.site.scenario!.events];
}

/** Atoms for the pages a cannibalised query spreads to: silent (weight 0) until the event's first day. */
function withCompetingPages(base: SearchModel, events: readonly ScenarioEvent[], site: DemoSite): { search: SearchModel; competing: Map<ScenarioEvent, Set<number>> } {
  const competing = new Map<ScenarioEvent, Set<number>>();
  const [queries, ...rest] = base.families;
  const extra: Atom[] = [];
  for (const event of events) {
    if (event.kind !== 'cannibalisation') continue;
    const own = queries!.atoms.filter((a) => sameText(a.values[0]!, event.query));
    const share = own.reduce((acc, a) => acc + a.share, 0);
    if (share === 0) continue;
    const position = own.reduce((acc, a) => acc + a.share * (a.attrs?.pos ?? 1), 0) / share;
    const worse = position * CANNIBALISED_POSITION;
    const indices = new Set<number>();
    for (const page of event.pages) {
      indices.add(queries!.atoms.length + extra.length);
      extra.push({ share, values: [own[0]!.values[0]!, pageUrl(site, page)], attrs: { pos: worse, ctr: ctrAt(worse) } });
    }
    competing.set(event, indices);
  }
  if (extra.length === 0) return { search: base, competing };
  return { search: { ...base, families: [{ ...queries!, atoms: [...queries!.atoms, ...extra] }, ...rest] }, competing };
}

function searchEffects(search: SearchModel, events: readonly ScenarioEvent[], site: DemoSite, baseCount: number, competingPages: Map<ScenarioEvent, Set<number>>): AtomEffect[] {
  const [queries, countries, devices] = [family(search, 'query'), family(search, 'country'), family(search, 'device')];
  const effects: AtomEffect[] = [];
  for (const event of events) {
    if (event.kind === 'segment_shift' || event.kind === 'spike') {
      const linked = linkedSegment(event.dimension, event.value, site, countries, devices, queries);
      if (!linked) continue;
      const factorOn = event.kind === 'spike' ? ((day: number) => (d: number) => (d === day ? event.factor : 1))(fromDay(event.date)) : ((from: number) => (d: number) => (d >= from ? event.factor : 1))(fromDay(event.from));
      effects.push({ family: linked.family.key, atoms: linked.atoms, at: (_, d) => ({ w: factorOn(d) }) });
    } else if (event.kind === 'ranking_loss') {
      const from = fromDay(event.from);
      const atoms = atomsWhere(queries, (a) => sameText(a.values[0]!, event.query));
      atoms.forEach((a) => a >= baseCount && atoms.delete(a));
      const impressions = event.position > 10 ? OFF_PAGE_ONE_IMPRESSIONS : 1;
      effects.push({
        family: 'query',
        atoms,
        at: (a, d) => {
          if (d < from) return { w: 1 };
          const attrs = queries.atoms[a]!.attrs ?? {};
          return { w: impressions, ctr: ctrAt(event.position) / (attrs.ctr ?? 1), pos: event.position / (attrs.pos ?? 1) };
        },
      });
    } else {
      const from = fromDay(event.from);
      const own = atomsWhere(queries, (a) => sameText(a.values[0]!, event.query));
      for (const a of own) if (a >= baseCount) own.delete(a);
      const competing = competingPages.get(event);
      if (own.size === 0 || !competing) continue;
      effects.push({ family: 'query', atoms: own, at: (_, d) => ({ w: d >= from ? 0 : 1 }) });
      effects.push({ family: 'query', atoms: competing, at: (_, d) => ({ w: d >= from ? 1 / event.pages.length : 0 }) });
    }
  }
  return effects;
}

function family(search: SearchModel, key: string): Family {
  return search.families.find((f) => f.key === key)!;
}

/** The search segment a GA segment is, if it is search traffic at all. */
function linkedSegment(dimension: string, value: string, site: DemoSite, countries: Family, devices: Family, queries: Family): { family: Family; atoms: Set<number> } | undefined {
  const all = () => ({ family: countries, atoms: atomsWhere(countries, () => true) });
  switch (dimension) {
    case 'country': {
      const alpha3 = COUNTRIES.find((c) => c.name === value)?.alpha3;
      return alpha3 ? { family: countries, atoms: atomsWhere(countries, (a) => a.values[0] === alpha3) } : undefined;
    }
    case 'deviceCategory':
      return { family: devices, atoms: atomsWhere(devices, (a) => a.values[0] === value.toUpperCase()) };
    case 'landingPage':
      return { family: queries, atoms: atomsWhere(queries, (a) => a.values[1] === pageUrl(site, value)) };
    case 'sessionDefaultChannelGroup':
      return value === 'Organic Search' ? all() : undefined;
    case 'sessionSource':
    case 'sessionSourceMedium':
      // Engine-specific sources scale both engines here: the search model is shared, and the split is small.
      return /^(google|bing)( \/ organic)?$/.test(value) ? all() : undefined;
    default:
      return undefined;
  }
}

/**
 * GA's side of ranking losses: the sessions that the lost engine1 clicks would have brought no longer land on the
 * query's pages (a landing-page effect sized by the query's share of each page's search clicks).
 */
export function rankingLossSessionEffects(site: DemoSite, base: SiteModel, gaFamilies: readonly Family[]): AtomEffect[] {
  const losses = (site.scenario?.events ?? []).filter((e) => e.kind === 'ranking_loss');
  if (losses.length === 0) return [];
  const landing = gaFamilies.find((f) => f.key === 'landing')!;
  const queries = searchModel(base, 'engine1').families[0]!;
  const organic = organicSessionShare('google') + organicSessionShare('bing');
  const effects: AtomEffect[] = [];
  for (const loss of losses) {
    const from = fromDay(loss.from);
    // Clicks per impression the query keeps after the loss, counting the impressions it no longer gets.
    const kept = (loss.position > 10 ? OFF_PAGE_ONE_IMPRESSIONS : 1) * ctrAt(loss.position);
    // Per page: the share of its search clicks that this query brings, and what that costs in landings.
    const atoms = new Set<number>();
    const factor = new Map<number, number>();
    const clickMass = new Map<string, number>();
    for (const a of queries.atoms) clickMass.set(a.values[1]!, (clickMass.get(a.values[1]!) ?? 0) + a.share * (a.attrs?.ctr ?? 1));
    for (const a of queries.atoms) {
      if (!sameText(a.values[0]!, loss.query)) continue;
      const path = a.values[1]!.slice(base.origin.length);
      const index = landing.atoms.findIndex((l) => l.values[0] === path);
      const page = base.pages.find((p) => p.path === path);
      if (index < 0 || !page || page.landingShare === 0) continue;
      const ctr = a.attrs?.ctr ?? 1;
      const ofPage = (a.share * ctr) / clickMass.get(a.values[1]!)!;
      const lost = organic * (page.searchShare / page.landingShare) * ofPage * Math.max(0, 1 - kept / ctr);
      atoms.add(index);
      factor.set(index, Math.max(0.05, (factor.get(index) ?? 1) - lost));
    }
    effects.push({ family: 'landing', atoms, at: (a, d) => ({ w: d >= from ? factor.get(a)! : 1 }) });
  }
  return effects;
}
