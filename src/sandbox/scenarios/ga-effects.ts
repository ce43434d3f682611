// What planted events do to a GA4 property: a shifted segment scales every metric of its sessions, and a
// ranking loss takes the clicks it loses away from the organic sessions of the pages that ranked for the query.
import type { DemoSite } from '../catalogue.ts';
import { weightedMatch, type CellEffect, type EffectWhere, type Family } from '../data/cube.ts';
import type { SiteModel } from '../data/site-model.ts';
import { ANONYMOUS, ctrAt, searchModel, type SearchModel } from '../engine1/search-model.ts';
import { eventDays } from './scenario-events.ts';
import type { SiteScenario } from './scenario-store.ts';
import { atomsOf } from './search-effects.ts';

const ENGINES = [['engine1', 'google'], ['engine2', 'bing']] as const;

const pageMassCache = new WeakMap<SearchModel, Map<string, number>>();

/** Each page's click mass (impression share × CTR) on an engine. */
function pageMass(search: SearchModel): Map<string, number> {
  let mass = pageMassCache.get(search);
  if (!mass) {
    mass = new Map();
    for (const a of search.queryAtoms) mass.set(a.page, (mass.get(a.page) ?? 0) + a.share * a.ctr);
    pageMassCache.set(search, mass);
  }
  return mass;
}

/** The planted effects of one day on the property's sessions. */
export function gaDayEffects(site: DemoSite, model: SiteModel, scenario: SiteScenario, day: number): CellEffect[] {
  const effects: CellEffect[] = [];
  const inForce = (event: Parameters<typeof eventDays>[0]) => {
    const { first, last } = eventDays(event);
    return day >= first && day <= last;
  };
  for (const event of scenario.segments) if (inForce(event)) effects.push({ where: [[event.dimension, event.value]], factor: event.factor });
  for (const event of scenario.search) {
    if (event.kind !== 'ranking_loss' || !inForce(event)) continue;
    for (const [engine, source] of ENGINES) {
      const search = searchModel(model, engine);
      for (const atom of atomsOf(search, event.query)) {
        if (atom.query === ANONYMOUS) continue;
        // The page's search sessions from this engine lose the share of its clicks this query no longer brings.
        const lost = (atom.share * atom.ctr * (1 - ctrAt(event.position) / ctrAt(atom.position))) / pageMass(search).get(atom.page)!;
        const where: EffectWhere = [['sessionSource', source], ['sessionMedium', 'organic'], ['landingPage', atom.page.slice(model.origin.length) || '/']];
        effects.push({ where, factor: Math.max(0, 1 - lost) });
      }
    }
  }
  return effects;
}

const shareCache = new WeakMap<readonly Family[], Map<string, number>>();

/** How a day's effects move the property's totals: each effect's share of sessions times its change. */
export function gaTotalsFactor(families: readonly Family[], effects: readonly CellEffect[]): number {
  let byWhere = shareCache.get(families);
  if (!byWhere) shareCache.set(families, (byWhere = new Map()));
  let factor = 1;
  for (const effect of effects) {
    const key = JSON.stringify(effect.where);
    let share = byWhere.get(key);
    if (share === undefined) byWhere.set(key, (share = weightedMatch(families, effect.where)));
    factor *= 1 + share * (effect.factor - 1);
  }
  return factor;
}
