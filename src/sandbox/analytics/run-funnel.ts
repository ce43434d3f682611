// v1alpha runFunnelReport from the same users model as the reports: a step's condition has a session reach (an
// event's, the union of the pages it matches, a dimension's share) and its users are 1 − (1 − reach)^k of the
// range's users (k sessions per user), as the event and page breakdowns count them; later steps convert from the
// previous one, so steps never grow. The funnel's variation is seeded by its meaning (canonical form), not its
// JSON spelling. Breakdowns and trended views split each step by the previous step's integer parts.
import { apportion } from '../data/apportion.ts';
import { compactDate } from '../data/calendar.ts';
import { hashString, unit } from '../data/hash.ts';
import { omitDefaults } from '../http.ts';
import { REACH } from '../data/cube.ts';
import type { PropertyContext } from './context.ts';
import { DIMENSION_BY_NAME } from './fields.ts';
import { compileFilter } from './filters.ts';
import { assertKnownFields, invalid, unknownDimension } from './ga-errors.ts';
import { runEngine } from './report-engine.ts';
import { parseInt64, parseReportQuery } from './report-request.ts';
import type { Json } from './run-report.ts';

const FUNNEL_FIELDS = ['property', 'dateRanges', 'funnel', 'funnelBreakdown', 'funnelNextAction', 'funnelVisualizationType', 'segments', 'limit',
  'dimensionFilter', 'returnPropertyQuota'];
const PAGE_PARAMS: Record<string, string> = { page_location: 'pageLocation', page_path: 'pagePath', page_title: 'pageTitle', page_referrer: 'pagePath' };

const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

interface Step {
  name: string;
  reach: number;
  direct: boolean;
  withinSeconds?: number;
}

/**
 * Session reach of the values of `dim` that satisfy a GA string/inList filter: the union of their reaches in a
 * reach family (pages, events: a session can have several), the sum of their shares in a partition (country).
 */
function familyReach(ctx: PropertyContext, dim: string, filterJson: Json): number {
  const family = ctx.families.find((f) => f.dims.includes(dim));
  if (!family) return 0.5;
  const pos = family.dims.indexOf(dim);
  const test = compileFilter({ filter: { ...filterJson, fieldName: dim } }, () => undefined).test;
  let miss = 1;
  let share = 0;
  const seen = new Set<string>();
  for (const a of family.atoms) {
    if (!test(() => a.values[pos]!)) continue;
    share += a.share;
    const reach = a.attrs?.[REACH];
    // Atoms repeating a value (cities of one country) are one value for a reach family.
    if (reach !== undefined && !seen.has(a.values[pos]!)) miss *= 1 - reach;
    seen.add(a.values[pos]!);
  }
  return family.atoms[0]?.attrs?.[REACH] !== undefined ? 1 - miss : Math.min(1, share);
}

function reachOf(ctx: PropertyContext, expr: unknown, path: string): number {
  const e = obj(expr);
  if (e.andGroup) return arr(obj(e.andGroup).expressions).reduce<number>((acc, x, i) => acc * reachOf(ctx, x, `${path}.andGroup[${i}]`), 1);
  if (e.orGroup) return 1 - arr(obj(e.orGroup).expressions).reduce<number>((acc, x, i) => acc * (1 - reachOf(ctx, x, `${path}.orGroup[${i}]`)), 1);
  if (e.notExpression) return 1 - reachOf(ctx, e.notExpression, `${path}.notExpression`);
  if (e.funnelEventFilter) {
    const f = obj(e.funnelEventFilter);
    const base = familyReach(ctx, 'eventName', { stringFilter: { matchType: 'EXACT', value: String(f.eventName ?? '') } });
    return f.funnelParameterFilterExpression ? base * parameterReach(ctx, f.funnelParameterFilterExpression) : base;
  }
  if (e.funnelFieldFilter) {
    const f = obj(e.funnelFieldFilter);
    const field = String(f.fieldName ?? '');
    if (!DIMENSION_BY_NAME.has(field)) throw unknownDimension(field);
    const { fieldName: _ignored, ...rest } = f;
    return familyReach(ctx, field, rest);
  }
  throw invalid(`${path}: a FunnelFilterExpression must set andGroup, orGroup, notExpression, funnelFieldFilter or funnelEventFilter.`);
}

/** An event parameter condition: page parameters as the page they name (of the event's sessions), others half. */
function parameterReach(ctx: PropertyContext, expr: unknown): number {
  const e = obj(expr);
  if (e.andGroup) return arr(obj(e.andGroup).expressions).reduce<number>((acc, x) => acc * parameterReach(ctx, x), 1);
  if (e.orGroup) return 1 - arr(obj(e.orGroup).expressions).reduce<number>((acc, x) => acc * (1 - parameterReach(ctx, x)), 1);
  if (e.notExpression) return 1 - parameterReach(ctx, e.notExpression);
  const f = obj(e.funnelParameterFilter);
  const dim = PAGE_PARAMS[String(f.eventParameterName ?? '')];
  const { eventParameterName: _a, itemParameterName: _b, ...rest } = f;
  return dim ? familyReach(ctx, dim, rest) : 0.5;
}

/** The funnel as it means: keys sorted, defaults (false, 0, "", []) and step names left out. */
export function canonicalFunnel(funnel: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value as Json)
      .filter(([k, v]) => !(k === 'name' && typeof v === 'string'))
      .map(([k, v]) => [k, canonical(v)] as const)
      .filter(([, v]) => v !== undefined && v !== false && v !== 0 && v !== '' && v !== null && !(Array.isArray(v) && v.length === 0))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  };
  return JSON.stringify(canonical(funnel));
}

function parseDuration(text: unknown): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(String(text));
  if (!m) throw invalid(`Invalid duration ${String(text)}; use a number of seconds with an "s" suffix.`);
  return Number(m[1]);
}

export function runFunnelReport(ctx: PropertyContext, body: Json): { response: Json } {
  assertKnownFields(body, FUNNEL_FIELDS);
  if (body.segments !== undefined) throw invalid('segments are not supported by the Siteline sandbox.');
  const funnel = obj(body.funnel);
  const rawSteps = arr(funnel.steps);
  if (rawSteps.length === 0) throw invalid('funnel.steps must contain at least one step.');
  const steps: Step[] = rawSteps.map((raw, i) => {
    const s = obj(raw);
    if (s.filterExpression === undefined) throw invalid(`funnel.steps[${i}].filterExpression is required.`);
    return { name: `${i + 1}. ${String(s.name ?? '')}`, reach: reachOf(ctx, s.filterExpression, `funnel.steps[${i}]`), direct: s.isDirectlyFollowedBy === true, withinSeconds: parseDuration(s.withinDurationFromPriorStep) };
  });
  const open = funnel.isOpenFunnel === true;
  const trended = body.funnelVisualizationType === 'TRENDED_FUNNEL';
  const breakdown = body.funnelBreakdown === undefined ? undefined : obj(body.funnelBreakdown);
  const breakdownDim = breakdown ? String(obj(breakdown.breakdownDimension).name ?? '') : undefined;
  const breakdownLimit = Math.min(15, parseInt64(breakdown?.limit, 'funnelBreakdown.limit', 5));
  const nextAction = body.funnelNextAction === undefined ? undefined : obj(body.funnelNextAction);
  const nextDim = nextAction ? String(obj(nextAction.nextActionDimension).name ?? '') : undefined;
  if (nextDim !== undefined && !['eventName', 'pagePath', 'pageTitle', 'unifiedScreenName', 'pagePathPlusQueryString'].includes(nextDim)) throw invalid(`funnelNextAction.nextActionDimension ${nextDim} is not allowed; use eventName or a page/screen dimension.`);
  const nextLimit = Math.min(5, parseInt64(nextAction?.limit, 'funnelNextAction.limit', 5));

  // Users in the range (one row per day when trended), after the request's dimension filter.
  const query = parseReportQuery({ dateRanges: arr(body.dateRanges).slice(0, 1), dimensions: trended ? [{ name: 'date' }] : [], metrics: [{ name: 'activeUsers' }, { name: 'sessions' }], dimensionFilter: body.dimensionFilter },
    { surface: 'core', timeZone: ctx.site.timezone, now: ctx.now, customDefinitions: true });
  const engine = runEngine(ctx.model, ctx.families, query, ctx.site.timezone, ctx.now);
  const userIdx = engine.baseKeys.indexOf('activeUsers');
  const sessionIdx = engine.baseKeys.indexOf('sessions');
  const daily = engine.rows.map((r) => ({ date: r.dimensionValues[0] ?? '', users: r.base[userIdx]! })).sort((a, b) => (a.date < b.date ? -1 : 1));
  const users = daily.reduce((a, d) => a + d.users, 0);
  const sessions = engine.rows.reduce((a, r) => a + r.base[sessionIdx]!, 0);
  const perUser = users > 0 ? Math.max(1, sessions / users) : 1;
  const userReach = (reach: number) => 1 - Math.pow(1 - Math.min(1, Math.max(0, reach)), perUser);
  const seed = hashString(canonicalFunnel(body.funnel));
  const counts: number[] = [];
  steps.forEach((s, i) => {
    if (i === 0) return counts.push(Math.round(users * userReach(s.reach)));
    const prev = steps[i - 1]!;
    const before = userReach(prev.reach);
    let p = before > 0 ? Math.min(1, userReach(s.reach) / before) : 0;
    // Not every user who does both does them in order (closed funnel); open funnels let users enter later.
    p *= 0.82 + 0.15 * unit(seed, i);
    if (s.direct) p *= 0.6;
    if (s.withinSeconds !== undefined) p *= 0.55 + 0.45 * (1 - Math.exp(-s.withinSeconds / 1800));
    if (open) p = Math.min(1, p * 1.1);
    counts.push(Math.floor(counts[i - 1]! * p));
  });

  const metricHeaders = [
    { name: 'activeUsers', type: 'TYPE_INTEGER' }, { name: 'funnelStepCompletionRate', type: 'TYPE_FLOAT' },
    { name: 'funnelStepAbandonments', type: 'TYPE_INTEGER' }, { name: 'funnelStepAbandonmentRate', type: 'TYPE_FLOAT' },
  ];
  const stepMetrics = (series: number[], i: number) => {
    const here = series[i]!;
    const next = series[i + 1] ?? 0;
    const abandon = here - next;
    return [here, here ? next / here : 0, abandon, here ? abandon / here : 0].map((v) => ({ value: String(Number(v.toPrecision(12))) }));
  };
  const tableRows: Json[] = [];
  if (breakdownDim) {
    const family = ctx.families.find((f) => f.dims.includes(breakdownDim));
    if (!family || !DIMENSION_BY_NAME.has(breakdownDim)) throw unknownDimension(breakdownDim);
    const pos = family.dims.indexOf(breakdownDim);
    const groups = new Map<string, number>();
    for (const a of family.atoms) groups.set(a.values[pos]!, (groups.get(a.values[pos]!) ?? 0) + a.share);
    const values = [...groups.entries()].sort((a, b) => b[1] - a[1]);
    // Split step 1 by share, every later step by the previous step's parts: no value ever grows.
    const parts: Float64Array[] = [];
    counts.forEach((c, i) => {
      const out = new Float64Array(values.length);
      apportion(c, i === 0 ? values.map((v) => v[1]) : parts[i - 1]!, out, i > 0);
      parts.push(out);
    });
    steps.forEach((s, i) => {
      tableRows.push({ dimensionValues: [{ value: s.name }, { value: 'RESERVED_TOTAL' }], metricValues: stepMetrics(counts, i) });
      values.slice(0, breakdownLimit).forEach(([value], v) => {
        tableRows.push({ dimensionValues: [{ value: s.name }, { value }], metricValues: stepMetrics(parts.map((p) => p[v]!), i) });
      });
    });
  } else {
    steps.forEach((s, i) => tableRows.push({ dimensionValues: [{ value: s.name }], metricValues: stepMetrics(counts, i) }));
  }

  const vizRows: Json[] = [];
  const vizDims = [{ name: 'funnelStepName' }];
  if (trended) {
    vizDims.push({ name: 'date' });
    const perDay: Float64Array[] = [];
    counts.forEach((c, i) => {
      const out = new Float64Array(daily.length);
      apportion(c, i === 0 ? daily.map((d) => d.users) : perDay[i - 1]!, out, true);
      perDay.push(out);
    });
    steps.forEach((s, i) => daily.forEach((d, j) => vizRows.push({ dimensionValues: [{ value: s.name }, { value: d.date || compactDate(0) }], metricValues: [{ value: String(perDay[i]![j]!) }] })));
  } else if (nextDim) {
    vizDims.push({ name: nextDim });
    const family = ctx.families.find((f) => f.dims.includes(nextDim))!;
    const pos = family.dims.indexOf(nextDim);
    const top = [...family.atoms].sort((a, b) => b.share - a.share).slice(0, nextLimit);
    steps.forEach((s, i) => {
      const out = new Float64Array(top.length);
      apportion(Math.floor(counts[i]! * 0.85), top.map((a) => a.share), out);
      top.forEach((a, j) => vizRows.push({ dimensionValues: [{ value: s.name }, { value: a.values[pos]! }], metricValues: [{ value: String(out[j]!) }] }));
    });
  } else {
    steps.forEach((s, i) => vizRows.push({ dimensionValues: [{ value: s.name }], metricValues: [{ value: String(counts[i]!) }] }));
  }
  const response = {
    funnelTable: { dimensionHeaders: breakdownDim ? [{ name: 'funnelStepName' }, { name: breakdownDim }] : [{ name: 'funnelStepName' }], metricHeaders, rows: tableRows, metadata: {} },
    funnelVisualization: { dimensionHeaders: vizDims, metricHeaders: [{ name: 'activeUsers', type: 'TYPE_INTEGER' }], rows: vizRows, metadata: {} },
    kind: 'analyticsData#runFunnelReport',
  };
  return { response: omitDefaults(response) };
}
