// What planted events do to a GA4 property on one day, as whole-number changes of the day's totals: a shifted
// segment changes every metric of its sessions by what the segment held that day (sessions, users, key events,
// engagement, revenue in proportion), a rate shift only the numerator of its rate, and a ranking loss or a page drop
// the organic sessions landing on the pages that lost search clicks. Nothing outside the segment moves.
import type { DemoSite, SiteScenario } from '../catalogue.ts';
import type { CellEffect, EffectWhere, Family, MetricPlan } from '../data/cube.ts';
import { segmentShare, type CellTime } from '../data/own-trends.ts';
import { wholeDelta } from '../data/cell-deltas.ts';
import type { SiteModel } from '../data/site-model.ts';
import { BASE_PLAN } from '../analytics/fields.ts';
import { ANONYMOUS, ctrAt, searchModel, type SearchModel } from '../engine1/search-model.ts';
import { factorOn, inForce, onEngine, RATE_METRICS, type SearchEvent } from './scenario-events.ts';
import { atomsOf } from './search-effects.ts';
import { pagePath } from './page-path.ts';

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

/** The attributes that tilt a metric's split, along its chain of parents (key events by conversion, …). */
function chainOf(plan: readonly MetricPlan[], key: string): string[] {
  const m = plan.find((x) => x.key === key);
  if (!m || m.mode === 'root') return [];
  const parent = m.parent ? chainOf(plan, m.parent) : [];
  return m.mode === 'sub' ? parent : [...parent, ...(m.attrs ?? [])];
}

const CHAINS = new Map(BASE_PLAN.map((m) => [m.key, chainOf(BASE_PLAN, m.key)]));

interface Change {
  where: EffectWhere;
  factor: number;
  /** The metrics it changes (undefined: all of the segment's). */
  keys?: readonly string[];
}

/** The organic sessions from one engine that land on a page. */
const organicLanding = (source: string, path: string): EffectWhere => [['sessionSource', source], ['sessionMedium', 'organic'], ['landingPage', path]];

/** The site's search events as changes of GA's organic landings: the clicks a page lost, lost as sessions too. */
function searchChanges(model: SiteModel, site: DemoSite, events: readonly SearchEvent[], day: number): Change[] {
  const out: Change[] = [];
  for (const event of events) {
    if (!inForce(event, day)) continue;
    for (const [engine, source] of ENGINES) {
      if (!onEngine(event, engine)) continue;
      if (event.kind === 'page_drop') {
        out.push({ where: organicLanding(source, pagePath(site, event.page)), factor: event.factor });
        continue;
      }
      if (event.kind !== 'ranking_loss') continue;
      const search = searchModel(model, engine);
      for (const atom of atomsOf(search, event.query)) {
        if (atom.query === ANONYMOUS) continue;
        // The page's search sessions from this engine lose the share of its clicks this query no longer brings.
        const lost = (atom.share * atom.ctr * (1 - ctrAt(event.position) / ctrAt(atom.position))) / pageMass(search).get(atom.page)!;
        out.push({ where: organicLanding(source, atom.page.slice(model.origin.length) || '/'), factor: Math.max(0, 1 - lost) });
      }
    }
  }
  return out;
}

/** Changes on one segment multiply (a spike on a shifted segment); distinct segments add. */
function combine(changes: readonly Change[]): Change[] {
  const byKey = new Map<string, Change>();
  for (const c of changes) {
    const key = JSON.stringify([c.where, c.keys ?? null]);
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, factor: seen.factor * c.factor } : c);
  }
  return [...byKey.values()];
}

/** The planted effects of one day on the property: each a whole-number delta of the day's totals. */
export function gaDayEffects(site: DemoSite, model: SiteModel, families: readonly Family[], scenario: SiteScenario, day: number): CellEffect[] {
  const changes: Change[] = [];
  for (const event of scenario.segments) {
    if (!inForce(event, day)) continue;
    const where: EffectWhere = [[event.dimension, event.value]];
    changes.push({ where, factor: factorOn(event, day), ...(event.kind === 'rate_shift' ? { keys: RATE_METRICS[event.metric] } : {}) });
  }
  changes.push(...searchChanges(model, site, scenario.search, day));
  if (changes.length === 0) return [];
  const totals = model.dailyTotals(day);
  const time: CellTime = { day, span: 1 };
  return combine(changes).map(({ where, factor, keys }) => {
    const part = (key: string) => (totals[key] ?? 0) * segmentShare(families, where, time, CHAINS.get(key) ?? []);
    const delta: Record<string, number> = {};
    const what = JSON.stringify(where);
    for (const key of keys ?? Object.keys(totals)) delta[key] = wholeDelta(part(key) * (factor - 1), day, `${what}|${key}`);
    // A higher engagement rate cannot engage more sessions than the segment has.
    if (delta.engagedSessions !== undefined && keys) delta.engagedSessions = Math.min(delta.engagedSessions, Math.floor(part('sessions') - part('engagedSessions')));
    return { where, factor, delta };
  });
}
