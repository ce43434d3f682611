// A site model with the planted events of its scenario: daily totals moved by the day's effects, and the effects
// themselves for the report cells to split the moved totals by (the segment's share changes with its volume).
import type { DemoSite } from '../catalogue.ts';
import type { CellEffect, Family } from '../data/cube.ts';
import type { SiteModel } from '../data/site-model.ts';
import { gaDayEffects, gaTotalsFactor } from './ga-effects.ts';
import type { SiteScenario } from './scenario-store.ts';

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
    if (!effects) effectsByDay.set(day, (effects = gaDayEffects(site, model, scenario, day)));
    return effects;
  };
  const dailyTotals = (day: number): Readonly<Record<string, number>> => {
    const effects = dayEffects(day);
    if (effects.length === 0) return model.dailyTotals(day);
    let totals = totalsByDay.get(day);
    if (!totals) {
      const factor = gaTotalsFactor(families, effects);
      totals = Object.fromEntries(Object.entries(model.dailyTotals(day)).map(([k, v]) => [k, Math.round(v * factor)]));
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
