// A site model with the planted events of its scenario: each day's totals are the unplanted ones plus the day's
// planted deltas, and the effects carry those deltas for the report cells to add to the segments they reach.
import type { DemoSite } from '../catalogue.ts';
import type { CellEffect, Family } from '../data/cube.ts';
import type { SiteModel } from '../data/site-model.ts';
import { gaDayEffects } from './ga-effects.ts';
import type { SiteScenario } from '../catalogue.ts';

const cache = new WeakMap<SiteScenario, WeakMap<SiteModel, SiteModel>>();

export function plantedModel(model: SiteModel, families: readonly Family[], site: DemoSite): SiteModel {
  const scenario = site.scenario;
  if (!scenario || scenario.segments.length + scenario.search.length === 0) return model;
  let byModel = cache.get(scenario);
  if (!byModel) cache.set(scenario, (byModel = new WeakMap()));
  const hit = byModel.get(model);
  if (hit) return hit;
  const effectsByDay = new Map<number, CellEffect[]>();
  const totalsByDay = new Map<number, Record<string, number>>();
  const dayEffects = (day: number): CellEffect[] => {
    let effects = effectsByDay.get(day);
    if (!effects) effectsByDay.set(day, (effects = gaDayEffects(site, model, families, scenario, day)));
    return effects;
  };
  const dailyTotals = (day: number): Readonly<Record<string, number>> => {
    const effects = dayEffects(day);
    if (effects.length === 0) return model.dailyTotals(day);
    let totals = totalsByDay.get(day);
    if (!totals) {
      totals = { ...model.dailyTotals(day) };
      for (const e of effects) for (const [k, v] of Object.entries(e.delta ?? {})) totals[k] = (totals[k] ?? 0) + v;
      totalsByDay.set(day, totals);
    }
    return totals;
  };
  const planted: SiteModel = {
    site: model.site, seed: model.seed, size: model.size, origin: model.origin, pages: model.pages, volume: model.volume,
    get queries() {
      return model.queries;
    },
    dailyTotals,
    dayEffects,
  };
  byModel.set(model, planted);
  return planted;
}
