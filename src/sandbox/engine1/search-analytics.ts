// searchAnalytics.query: Pacific dates with the 2–3 day lag (final/all/hourly_all), dimension filter groups,
// aggregation types, rows sorted by clicks and paged by rowLimit/startRow (≤ 25,000).
import { RE2JS } from 're2js';
import type { DemoSite } from '../catalogue.ts';
import { apportionCells, buildComboTable, unplantedTotals, type MetricPlan, type TimeCell } from '../data/cube.ts';
import { PACIFIC, formatOffset, isoDate, offsetMinutes, parseIsoDate, zonedMidnightMs, zonedParts } from '../data/calendar.ts';
import { gaussian, hashString } from '../data/hash.ts';
import { hourProfile, siteModel } from '../data/site-model.ts';
import { ANONYMOUS, PLAIN_RESULT, positionDrift } from './search-model.ts';
import { createEffectMix } from '../data/cell-effects.ts';
import { plantedSearchDay, scalePlantedDay } from '../scenarios/search-effects.ts';
import { competingSearch } from '../scenarios/competing-pages.ts';
import { badRequest } from './gsc-errors.ts';

type Json = Record<string, unknown>;

const DIMENSIONS: Record<string, string> = { date: 'date', query: 'query', page: 'page', country: 'country', device: 'device', searchappearance: 'searchAppearance', hour: 'hour' };
const OPERATORS: Record<string, string> = { equals: 'equals', notequals: 'notEquals', contains: 'contains', notcontains: 'notContains', includingregex: 'includingRegex', excludingregex: 'excludingRegex' };
const TYPES: Record<string, string> = { web: 'web', image: 'image', video: 'video', news: 'news', discover: 'discover', googlenews: 'googleNews' };
const AGGREGATIONS: Record<string, string> = { auto: 'auto', byproperty: 'byProperty', bypage: 'byPage', bynewsshowcasepanel: 'byNewsShowcasePanel' };
const STATES: Record<string, string> = { final: 'final', all: 'all', hourlyall: 'hourly_all' };

/** Both enum spellings are accepted: `notContains`, `NOT_CONTAINS`, `notcontains`. */
function enumValue(table: Record<string, string>, value: unknown, field: string, fallback?: string): string {
  if (value === undefined || value === null || value === '') {
    if (fallback !== undefined) return fallback;
    throw badRequest(`Missing required field: ${field}.`);
  }
  const v = table[String(value).toLowerCase().replace(/_/g, '')];
  if (!v) throw badRequest(`Invalid value at '${field}': "${String(value)}"`);
  return v;
}

interface Filter {
  dimension: string;
  test: (value: string) => boolean;
}

function compileFilter(raw: Json, i: number, j: number): Filter {
  const dimension = enumValue(DIMENSIONS, raw.dimension, `dimensionFilterGroups[${i}].filters[${j}].dimension`);
  if (dimension === 'date' || dimension === 'hour') throw badRequest(`Filtering by ${dimension} is not supported; use startDate and endDate.`);
  const operator = enumValue(OPERATORS, raw.operator, `dimensionFilterGroups[${i}].filters[${j}].operator`, 'equals');
  const expression = String(raw.expression ?? '');
  const lower = expression.toLowerCase();
  if (operator === 'includingRegex' || operator === 'excludingRegex') {
    let re: RE2JS;
    try {
      re = RE2JS.compile(expression);
    } catch {
      throw badRequest(`Invalid regular expression: ${expression}`);
    }
    return operator === 'includingRegex' ? { dimension, test: (v) => re.matcher(v).find() } : { dimension, test: (v) => !re.matcher(v).find() };
  }
  switch (operator) {
    case 'notEquals': return { dimension, test: (v) => v.toLowerCase() !== lower };
    case 'contains': return { dimension, test: (v) => v.toLowerCase().includes(lower) };
    case 'notContains': return { dimension, test: (v) => !v.toLowerCase().includes(lower) };
    default: return { dimension, test: (v) => v.toLowerCase() === lower };
  }
}

function parseDate(value: unknown, field: string): number {
  if (value === undefined || value === '') throw badRequest(`Missing required field: ${field}.`);
  const day = parseIsoDate(String(value));
  if (day === undefined) throw badRequest(`Invalid value at '${field}': "${String(value)}". Use YYYY-MM-DD.`);
  return day;
}

const pad = (n: number) => String(n).padStart(2, '0');

function hourKey(day: number, hour: number): string {
  const instant = zonedMidnightMs(day, PACIFIC) + hour * 3_600_000;
  return `${isoDate(day)}T${pad(hour)}:00:00${formatOffset(offsetMinutes(instant, PACIFIC), true)}`;
}

/** Share of impressions where two or more of the site's pages show for one query. */
const SEVERAL_PAGES = 0.11;

function countPerPage(row: Json): void {
  const impressions = Math.round(Number(row.impressions) * (1 + SEVERAL_PAGES));
  const clicks = Math.min(impressions, Math.round(Number(row.clicks) * (1 + SEVERAL_PAGES / 4)));
  Object.assign(row, { clicks, impressions, ctr: impressions ? clicks / impressions : 0, position: Number((Number(row.position) * 1.09).toPrecision(15)) });
}

export function querySearchAnalytics(site: DemoSite, rawBody: Json, now: Date): Json {
  const startDay = parseDate(rawBody.startDate, 'startDate');
  const endDay = parseDate(rawBody.endDate, 'endDate');
  if (startDay > endDay) throw badRequest('startDate must be earlier than or equal to endDate.');
  const dims = (Array.isArray(rawBody.dimensions) ? rawBody.dimensions : []).map((d, i) => enumValue(DIMENSIONS, d, `dimensions[${i}]`));
  if (new Set(dims).size !== dims.length) throw badRequest('Each dimension may be requested only once.');
  const type = enumValue(TYPES, rawBody.type ?? rawBody.searchType, 'type', 'web');
  const dataState = enumValue(STATES, rawBody.dataState, 'dataState', 'final');
  const aggregation = enumValue(AGGREGATIONS, rawBody.aggregationType, 'aggregationType', 'auto');
  const rowLimit = rawBody.rowLimit === undefined ? 1000 : Number(rawBody.rowLimit);
  if (!Number.isInteger(rowLimit) || rowLimit < 1 || rowLimit > 25_000) throw badRequest(`rowLimit must be between 1 and 25000; got ${String(rawBody.rowLimit)}.`);
  const startRow = rawBody.startRow === undefined ? 0 : Number(rawBody.startRow);
  if (!Number.isInteger(startRow) || startRow < 0) throw badRequest(`startRow must be a non-negative integer; got ${String(rawBody.startRow)}.`);
  if (dims.includes('hour') && dataState !== 'hourly_all') throw badRequest('Grouping by hour requires dataState HOURLY_ALL.');
  const groups = Array.isArray(rawBody.dimensionFilterGroups) ? (rawBody.dimensionFilterGroups as Json[]) : [];
  const filters: Filter[] = groups.flatMap((g, i) => {
    if (g.groupType !== undefined && String(g.groupType).toLowerCase() !== 'and') throw badRequest(`dimensionFilterGroups[${i}].groupType must be "and".`);
    return (Array.isArray(g.filters) ? (g.filters as Json[]) : []).map((f, j) => compileFilter(f, i, j));
  });
  const pageInvolved = dims.includes('page') || filters.some((f) => f.dimension === 'page');
  if (aggregation === 'byProperty' && pageInvolved) throw badRequest('byProperty aggregation is not supported when grouping or filtering by page.');
  const responseAggregation = aggregation === 'auto' ? (pageInvolved ? 'byPage' : 'byProperty') : aggregation;

  const model = siteModel(site);
  const planted = competingSearch(site, model, 'engine1');
  const search = planted.search;
  const { day: today, hour: nowHour, minute } = zonedParts(now, PACIFIC);
  const finalThrough = today - (nowHour < 12 ? 3 : 2);
  const lastDay = Math.min(endDay, dataState === 'final' ? finalThrough : today);
  const firstDay = Math.max(startDay, today - 486); // 16 months of history
  const partial = (day: number) => (day <= finalThrough ? 1 : day === today ? ((nowHour + minute / 60) / 24) * 0.7 : day === today - 1 ? 0.82 : 0.94);

  const byDate = dims.includes('date');
  const byHour = dims.includes('hour');
  const cells: (TimeCell & { key: string })[] = [];
  const single: TimeCell & { key: string } = { totals: { impressions: 0, clicks: 0, posSum: 0 }, jitterKey: 0, key: '' };
  const profile = hourProfile(site.kind);
  const singleEffects = createEffectMix();
  let unplantedImpressions = 0;
  for (let day = firstDay; day <= lastDay; day++) {
    const t = plantedSearchDay(site, model, planted, 'engine1', type, day);
    const drift = positionDrift(model, day);
    const time = { day, span: 1 };
    if (byHour) {
      if (day < today - 10) continue;
      for (let h = 0; h < 24; h++) {
        if (day === today && h > nowHour) break;
        // Fresh hours are still filling in; the current one only up to this minute.
        const w = profile[h]! * (day > finalThrough ? 0.9 : 1) * (day === today && h === nowHour ? minute / 60 : 1);
        const hourDrift = drift * Math.exp(0.03 * gaussian(model.seed, day, 60 + h));
        const hour = scalePlantedDay(t, w);
        cells.push({ totals: { impressions: hour.impressions, clicks: hour.clicks, posSum: hourDrift }, jitterKey: hashString(`${day}:${h}`) || 1, time, key: hourKey(day, h), effects: hour.effects });
      }
      continue;
    }
    const { impressions, clicks, effects } = scalePlantedDay(t, partial(day));
    if (byDate) {
      cells.push({ totals: { impressions, clicks, posSum: drift }, jitterKey: hashString(String(day)) || 1, time, key: isoDate(day), effects });
    } else {
      singleEffects.add(effects ?? [], impressions);
      // The period's position scale is its days' drift, weighted by their unplanted impressions (so a planted event
      // does not move the positions of what it does not touch).
      const unplanted = impressions - (effects ?? []).reduce((a, e) => a + (e.delta?.impressions ?? 0), 0);
      single.totals = { impressions: single.totals.impressions! + impressions, clicks: single.totals.clicks! + clicks, posSum: single.totals.posSum! + drift * unplanted };
      unplantedImpressions += unplanted;
    }
  }
  if (!byDate && !byHour) {
    const span = Math.max(1, lastDay - firstDay + 1);
    single.totals = { ...single.totals, posSum: unplantedImpressions > 0 ? single.totals.posSum! / unplantedImpressions : 1 };
    cells.push({ ...single, time: { day: (firstDay + lastDay) / 2, span }, noiseKey: hashString(`${firstDay}|${lastDay}|${type}`) || 1, effects: singleEffects.result() });
  }

  const familyDims = [...new Set([...dims.filter((d) => d !== 'date' && d !== 'hour'), ...filters.map((f) => f.dimension)])];
  // Pruning follows the unplanted totals, so a planted event never changes which combinations exist.
  const maxImpressions = cells.reduce((m, c) => Math.max(m, unplantedTotals(c).impressions ?? 0), 1);
  const table = buildComboTable(search.families, familyDims, 0.3 / maxImpressions);
  const dimIndex = new Map(familyDims.map((d, i) => [d, i]));
  const dropAnonymous = dimIndex.has('query');
  const dropPlain = dimIndex.has('searchAppearance');
  const pass = new Uint8Array(table.size);
  const comboKeys: string[] = [];
  for (let c = 0; c < table.size; c++) {
    const value = (d: string) => table.value(c, dimIndex.get(d)!);
    let ok = !(dropAnonymous && value('query') === ANONYMOUS) && !(dropPlain && value('searchAppearance') === PLAIN_RESULT);
    for (const f of filters) if (ok && !f.test(value(f.dimension))) ok = false;
    pass[c] = ok ? 1 : 0;
    if (ok) comboKeys[c] = dims.map((d) => (d === 'date' || d === 'hour' ? '\u0000' : value(d))).join('\u0001');
  }
  const plan: MetricPlan[] = [
    { key: 'impressions', mode: 'root' },
    { key: 'clicks', mode: 'weighted', parent: 'impressions', attrs: ['ctr'] },
    { key: 'posSum', mode: 'product', parent: 'impressions', attrs: ['pos'] },
  ];
  const rows = new Map<string, { keys: string[]; clicks: number; impressions: number; posSum: number }>();
  // Jitter is seeded per day (or hour), so a day's row is the same however many days were asked; the one cell of a
  // request without date or hour has no jitter key.
  apportionCells(table, cells, plan, 0.2, (t, v) => {
    const imp = v.impressions!, clk = v.clicks!, pos = v.posSum!;
    for (let c = 0; c < table.size; c++) {
      if (!pass[c] || imp[c] === 0) continue;
      const key = `${cells[t]!.key}\u0002${comboKeys[c]}`;
      let row = rows.get(key);
      if (!row) {
        const keys = dims.map((d, i) => (d === 'date' || d === 'hour' ? cells[t]!.key : comboKeys[c]!.split('\u0001')[i]!));
        rows.set(key, (row = { keys, clicks: 0, impressions: 0, posSum: 0 }));
      }
      row.clicks += clk[c]!;
      row.impressions += imp[c]!;
      row.posSum += pos[c]!;
    }
  });
  const sorted = [...rows.values()].sort((a, b) => b.clicks - a.clicks || b.impressions - a.impressions || (a.keys.join() < b.keys.join() ? -1 : 1));
  const page = sorted.slice(startRow, startRow + rowLimit).map((r) => {
    const clicks = Math.min(r.clicks, r.impressions);
    const out: Json = {};
    if (dims.length) out.keys = r.keys;
    out.clicks = clicks;
    out.impressions = r.impressions;
    out.ctr = r.impressions ? clicks / r.impressions : 0;
    out.position = Number((r.posSum / r.impressions).toPrecision(15));
    return out;
  });
  // byPage counts an impression per page of the site shown: without a page dimension that is more impressions
  // (several pages for one query), a few more clicks, and a worse average position than byProperty.
  if (responseAggregation === 'byPage' && !dims.includes('page')) for (const row of page) countPerPage(row);
  const response: Json = {};
  if (page.length) response.rows = page;
  response.responseAggregationType = responseAggregation;
  if (dataState === 'all' && byDate && endDay > finalThrough) response.metadata = { firstIncompleteDate: isoDate(finalThrough + 1) };
  if (dataState === 'hourly_all' && byHour) response.metadata = { firstIncompleteHour: hourKey(today, nowHour) };
  return response;
}
