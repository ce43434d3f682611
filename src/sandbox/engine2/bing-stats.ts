// Bing's traffic stats: whole history, no date parameters; weekly buckets for query/page stats (capped to the
// top rows per week), daily for rank-and-traffic; the page URL sits in `Query` for page-keyed methods.
import { apportionCells, buildComboTable, type MetricPlan } from '../data/cube.ts';
import { PACIFIC, weekday, zonedParts } from '../data/calendar.ts';
import { gaussian, hashString } from '../data/hash.ts';
import { siteModel, type SiteModel } from '../data/site-model.ts';
import { ANONYMOUS, ctrAt, searchModel, type SearchModel } from '../engine1/search-model.ts';
import { createEffectMix } from '../data/cell-effects.ts';
import { eventDays, onEngine } from '../scenarios/scenario-events.ts';
import { plantedSearchDay } from '../scenarios/search-effects.ts';
import { competingSearch } from '../scenarios/competing-pages.ts';
import type { DemoSite } from '../catalogue.ts';
import { bingDate } from './bing-dates.ts';

const NS = ':#Microsoft.Bing.Webmaster.Api';
/** Bing keeps about six months; its "top" lists are capped (the real cap is unconfirmed). */
const WEEKS = 26;
const DAYS = 182;
const TOP_PER_WEEK = 1000;
const LAG_DAYS = 2;

const PLAN: MetricPlan[] = [
  { key: 'impressions', mode: 'root' },
  { key: 'clicks', mode: 'weighted', parent: 'impressions', attrs: ['ctr'] },
  { key: 'posSum', mode: 'product', parent: 'impressions', attrs: ['pos'] },
];

interface Context {
  model: SiteModel;
  search: SearchModel;
  /** The search model with the site's competing pages (cannibalisation scenarios), for the page-level stats. */
  planted: ReturnType<typeof competingSearch>;
  today: number;
}

function context(site: DemoSite, now: Date): Context {
  const model = siteModel(site);
  return { model, search: searchModel(model, 'engine2'), planted: competingSearch(site, model, 'engine2'), today: zonedParts(now, PACIFIC).day };
}

/** Weekly buckets start on Fridays (as observed in recorded responses) and are reported once complete. */
function weeks(today: number): number[] {
  const lastComplete = today - LAG_DAYS;
  let start = lastComplete - 6;
  while (weekday(start) !== 5) start--;
  return Array.from({ length: WEEKS }, (_, i) => start - 7 * (WEEKS - 1 - i));
}

function positionOf(posSum: number, impressions: number): number {
  return Math.max(1, Math.round(posSum / Math.max(1, impressions)));
}

function queryStatsRow(key: string, day: number, impressions: number, clicks: number, posSum: number) {
  const pos = positionOf(posSum, impressions);
  return {
    __type: `QueryStats${NS}`,
    AvgClickPosition: clicks > 0 ? Math.max(1, Math.round(pos * 0.8)) : -1,
    AvgImpressionPosition: pos,
    Clicks: clicks,
    Date: bingDate(day),
    Impressions: impressions,
    Query: key,
  };
}

const weeklyCache = new Map<string, unknown[]>();

/** Rows per (key, week) where key is the query or the page; optionally restricted to one query or page. */
export function weeklyStats(site: DemoSite, now: Date, by: 'query' | 'page', only?: { query?: string; page?: string }): unknown[] {
  // Whole-history answers only change daily: memoise the last few (clients poll them per TTL).
  const cacheKey = JSON.stringify([site.key, site.scenario?.version ?? 0, zonedParts(now, PACIFIC).day, by, only ?? null]);
  const hit = weeklyCache.get(cacheKey);
  if (hit) return hit;
  const rows = computeWeekly(site, now, by, only);
  if (weeklyCache.size >= 16) weeklyCache.delete(weeklyCache.keys().next().value!);
  weeklyCache.set(cacheKey, rows);
  return rows;
}

function computeWeekly(site: DemoSite, now: Date, by: 'query' | 'page', only?: { query?: string; page?: string }): unknown[] {
  const { model, planted, today } = context(site, now);
  const search = planted.search;
  const starts = weeks(today);
  const cells = starts.map((start) => {
    let impressions = 0, clicks = 0;
    const effects = createEffectMix();
    for (let d = start; d < start + 7; d++) {
      const t = plantedSearchDay(site, model, planted, 'engine2', 'web', d);
      impressions += t.impressions;
      clicks += t.clicks;
      effects.add(t.effects ?? [], t.impressions);
    }
    return { totals: { impressions, clicks }, jitterKey: hashString(`w${start}`) || 1, time: { day: start + 3, span: 7 }, effects: effects.result() };
  });
  const dims = only?.query !== undefined || only?.page !== undefined ? ['query', 'page'] : [by];
  const table = buildComboTable(search.families, dims, 0);
  const qi = dims.indexOf('query'), pi = dims.indexOf('page'), ki = dims.indexOf(by);
  const out: unknown[] = [];
  apportionCells(table, cells, PLAN, 0.25, (t, v) => {
    const rows = new Map<string, { imp: number; clk: number; pos: number }>();
    for (let c = 0; c < table.size; c++) {
      const imp = v.impressions![c]!;
      if (imp === 0) continue;
      if (qi >= 0 && table.value(c, qi) === ANONYMOUS) continue;
      if (only?.query !== undefined && table.value(c, qi).toLowerCase() !== only.query.toLowerCase()) continue;
      if (only?.page !== undefined && table.value(c, pi).toLowerCase() !== only.page.toLowerCase()) continue;
      // GetQueryPageStats lists pages of one query; GetPageQueryStats queries of one page.
      const key = only?.query !== undefined ? table.value(c, pi) : only?.page !== undefined ? table.value(c, qi) : table.value(c, ki);
      const r = rows.get(key) ?? { imp: 0, clk: 0, pos: 0 };
      r.imp += imp;
      r.clk += Math.min(v.clicks![c]!, imp);
      r.pos += v.posSum![c]!;
      rows.set(key, r);
    }
    const top = [...rows.entries()].sort((a, b) => b[1].imp - a[1].imp || (a[0] < b[0] ? -1 : 1)).slice(0, TOP_PER_WEEK);
    for (const [key, r] of top) out.push(queryStatsRow(key, starts[t]!, r.imp, Math.min(r.clk, r.imp), r.pos));
  });
  return out;
}

export function rankAndTraffic(site: DemoSite, now: Date): unknown[] {
  const { model, planted, today } = context(site, now);
  const out: unknown[] = [];
  for (let d = today - LAG_DAYS - DAYS + 1; d <= today - LAG_DAYS; d++) {
    const t = plantedSearchDay(site, model, planted, 'engine2', 'web', d);
    out.push({ __type: `RankAndTrafficStats${NS}`, Clicks: t.clicks, Date: bingDate(d), Impressions: t.impressions });
  }
  return out;
}

/** Daily traffic of one query (optionally one page): its expected share of each day with its own noise. */
export function queryDaily(site: DemoSite, now: Date, query: string, page?: string): { day: number; impressions: number; clicks: number; position: number }[] {
  const { model, search, planted, today } = context(site, now);
  const atoms = search.queryAtoms.filter((a) => a.query !== ANONYMOUS && a.query.toLowerCase() === query.toLowerCase() && (page === undefined || a.page.toLowerCase() === page.toLowerCase()));
  if (atoms.length === 0) return [];
  const total = search.queryAtoms.reduce((acc, a) => acc + a.share, 0);
  const share = atoms.reduce((acc, a) => acc + a.share, 0) / total;
  const ctr = atoms.reduce((acc, a) => acc + a.share * a.ctr, 0) / atoms.reduce((acc, a) => acc + a.share, 0);
  const position = atoms.reduce((acc, a) => acc + a.share * a.position, 0) / atoms.reduce((acc, a) => acc + a.share, 0);
  const seed = hashString(query + (page ?? ''));
  const out = [];
  const losses = (site.scenario?.search ?? []).filter((e) => e.kind === 'ranking_loss' && onEngine(e, 'engine2') && e.query.toLowerCase() === query.toLowerCase());
  for (let d = today - LAG_DAYS - DAYS + 1; d <= today - LAG_DAYS; d++) {
    const t = plantedSearchDay(site, model, planted, 'engine2', 'web', d);
    const impressions = Math.round(t.impressions * share * Math.exp(0.25 * gaussian(seed, d)));
    if (impressions === 0) continue;
    // A planted ranking loss puts the query at its new position with the CTR that position gets.
    const loss = losses.findLast((e) => d >= eventDays(e).first);
    const dayPosition = loss && loss.kind === 'ranking_loss' ? loss.position : position;
    const dayCtr = dayPosition === position ? ctr : ctr * (ctrAt(dayPosition) / ctrAt(position));
    out.push({ day: d, impressions, clicks: Math.min(impressions, Math.round(impressions * dayCtr * Math.exp(0.3 * gaussian(seed, d, 1)))), position: Math.max(1, Math.round(dayPosition * Math.exp(0.05 * gaussian(seed, d, 2)))) });
  }
  return out;
}

export const bingType = (name: string) => `${name}${NS}`;
