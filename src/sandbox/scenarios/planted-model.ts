// A site's model with its planted events: GA's daily totals scale by how much of each shifted segment remains,
// and each report cell is split so the shifted segment carries the change (see atom-effects.ts). Search-side
// effects of the same events live in planted-search.ts.
import { familiesOf } from '../analytics/families.ts';
import type { DemoSite } from '../catalogue.ts';
import type { ComboTable, Family } from '../data/cube.ts';
import { parseIsoDate } from '../data/calendar.ts';
import { siteModel, type SiteModel } from '../data/site-model.ts';
import { plantFamilies, type AtomEffect, type CellMultipliers, type PlantedFamilies } from './atom-effects.ts';
import { rankingLossSessionEffects } from './planted-search.ts';
import type { SegmentEvent } from './scenario-events.ts';

/** Families whose values partition sessions: a planted shift of one of their values is well defined. */
const SEGMENT_FAMILIES = new Set(['geo', 'device', 'traffic', 'landing']);
const NOT_SHIFTABLE = new Set(['language', 'cityId', 'countryId', 'platform', 'firstUserSource', 'firstUserMedium', 'firstUserDefaultChannelGroup', 'landingPagePlusQueryString']);

export function segmentFamily(families: readonly Family[], dimension: string): Family | undefined {
  if (NOT_SHIFTABLE.has(dimension)) return undefined;
  return families.find((f) => SEGMENT_FAMILIES.has(f.key) && f.dims.includes(dimension));
}

/** The values a segment event may name for this site's dimension (undefined: the dimension cannot be shifted). */
export function segmentValues(site: DemoSite, dimension: string): string[] | undefined {
  const family = segmentFamily(familiesOf(siteModel(site)), dimension);
  if (!family) return undefined;
  const pos = family.dims.indexOf(dimension);
  return [...new Set(family.atoms.map((a) => a.values[pos]!))];
}

/** The factor a segment event applies on a day: from its first day on (shift) or on its day only (spike). */
export function segmentFactorOn(event: SegmentEvent): (day: number) => number {
  if (event.kind === 'spike') {
    const day = parseIsoDate(event.date)!;
    return (d) => (d === day ? event.factor : 1);
  }
  const from = parseIsoDate(event.from)!;
  return (d) => (d >= from ? event.factor : 1);
}

export function segmentEffect(family: Family, dimension: string, value: string, factorOn: (day: number) => number): AtomEffect {
  const pos = family.dims.indexOf(dimension);
  const atoms = new Set<number>();
  family.atoms.forEach((a, i) => {
    if (a.values[pos] === value) atoms.add(i);
  });
  return { family: family.key, atoms, at: (_, day) => ({ w: factorOn(day) }) };
}

interface Planted {
  model: SiteModel;
  ga: PlantedFamilies;
}

const planted = new Map<string, Planted>();
const byModel = new WeakMap<SiteModel, PlantedFamilies>();

/** The site's model with its planted events, or the plain model when it has none. */
export function plantedModel(site: DemoSite): SiteModel {
  const base = siteModel(site);
  if (!site.scenario) return base;
  const key = `${site.key}|${site.scenario.version}`;
  let entry = planted.get(key);
  if (!entry) {
    // One scenario set per site is live at a time; older versions are garbage.
    for (const k of planted.keys()) if (k.startsWith(`${site.key}|`)) planted.delete(k);
    entry = build(site, base);
    planted.set(key, entry);
    byModel.set(entry.model, entry.ga);
  }
  return entry.model;
}

function build(site: DemoSite, base: SiteModel): Planted {
  const families = familiesOf(base);
  const effects: AtomEffect[] = [];
  for (const event of site.scenario!.events) {
    if (event.kind !== 'segment_shift' && event.kind !== 'spike') continue;
    const family = segmentFamily(families, event.dimension);
    if (family) effects.push(segmentEffect(family, event.dimension, event.value, segmentFactorOn(event)));
  }
  effects.push(...rankingLossSessionEffects(site, base, families));
  const ga = plantFamilies(families, effects);
  const cache = new Map<number, Readonly<Record<string, number>>>();
  const dailyTotals = (day: number) => {
    let totals = cache.get(day);
    if (!totals) cache.set(day, (totals = scaleTotals(base.dailyTotals(day), ga.day(day).w)));
    return totals;
  };
  const model: SiteModel = {
    site, seed: base.seed, size: base.size, origin: base.origin, pages: base.pages, volume: base.volume, dailyTotals, baseline: base,
    get queries() {
      return base.queries;
    },
  };
  return { model, ga };
}

/** Every base total scaled by the same factor, with the totals' own orderings kept after rounding. */
function scaleTotals(totals: Readonly<Record<string, number>>, factor: number): Readonly<Record<string, number>> {
  if (factor === 1) return totals;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(totals)) out[k] = Math.round(v * factor);
  out.totalUsers = Math.min(out.totalUsers!, out.sessions!);
  out.activeUsers = Math.min(out.activeUsers!, out.totalUsers);
  out.newUsers = Math.min(out.newUsers!, out.totalUsers);
  out.engagedSessions = Math.min(out.engagedSessions!, out.sessions!);
  out.screenPageViews = Math.max(out.screenPageViews!, out.sessions!);
  return out;
}

/** Per-combination multipliers for a GA report cell spanning `days`, or undefined when nothing is planted. */
export function gaCellMultipliers(model: SiteModel, table: ComboTable, days: Iterable<number>): CellMultipliers | undefined {
  const ga = byModel.get(model);
  if (!ga || !model.baseline) return undefined;
  const baseline = model.baseline;
  return ga.cell(table, [...days], (d) => baseline.dailyTotals(d).sessions ?? 0);
}
