// Parses and validates a RunReportRequest (core, pivot or realtime surface) into an immutable query:
// names checked against the schema, expressions compiled, dates resolved in the property's time zone.
import { parseIsoDate, zonedParts } from '../data/calendar.ts';
import { FIRST_DAY } from '../data/site-model.ts';
import { compileFilter, type CompiledFilter } from './filters.ts';
import { DIMENSION_BY_NAME, METRIC_BY_NAME, type MetricType } from './fields.ts';
import { incompatible, invalid, unknownDimension, unknownMetric } from './ga-errors.ts';
import { parseMetricExpression } from './metric-expression.ts';

export type Surface = 'core' | 'realtime';

export interface RequestedDimension {
  name: string;
  /** Schema dimensions the value is computed from (one, unless it is a dimension expression). */
  underlying: string[];
  format: (values: string[]) => string;
}

export interface RequestedMetric {
  name: string;
  visible: boolean;
  type: MetricType;
  needs: string[];
  value: (base: (key: string) => number) => number;
}

export interface OrderBy {
  desc: boolean;
  metric?: string;
  dimension?: string;
  orderType?: 'ALPHANUMERIC' | 'CASE_INSENSITIVE_ALPHANUMERIC' | 'NUMERIC';
}

/** A date range as epoch days (core) or a minute range as minutes ago (realtime; start ≥ end). */
export interface ResolvedRange {
  name: string;
  start: number;
  end: number;
}

export interface ReportQuery {
  surface: Surface;
  dimensions: RequestedDimension[];
  metrics: RequestedMetric[];
  ranges: ResolvedRange[];
  dimensionFilter?: CompiledFilter;
  metricFilter?: CompiledFilter;
  orderBys: OrderBy[];
  limit: number;
  offset: number;
  keepEmptyRows: boolean;
  aggregations: string[];
  returnPropertyQuota: boolean;
}

type Json = Record<string, unknown>;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

export interface ParseContext {
  surface: Surface;
  timeZone: string;
  now: Date;
  /** False for property 0 and for realtime (user-scoped custom dimensions only, none defined). */
  customDefinitions: boolean;
}

export function parseInt64(value: unknown, field: string, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(String(value));
  if (!Number.isInteger(n)) throw invalid(`Invalid value at '${field}' (TYPE_INT64), "${String(value)}"`);
  return n;
}

function checkDimensionName(name: string, ctx: ParseContext): void {
  const def = DIMENSION_BY_NAME.get(name);
  if (!def || (def.custom && !ctx.customDefinitions)) throw unknownDimension(name);
  if (ctx.surface === 'realtime' && !def.realtime && name !== 'dateRange') throw invalid(`Field ${name} is not a valid dimension for realtime reports. Realtime reports accept realtime dimensions only; see https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema`);
  if (ctx.surface === 'core' && !def.core) throw unknownDimension(name);
}

function checkMetricName(name: string, ctx: ParseContext): void {
  const def = METRIC_BY_NAME.get(name);
  if (!def || (def.custom && !ctx.customDefinitions)) throw unknownMetric(name);
  if (ctx.surface === 'realtime' && !def.realtime) throw invalid(`Field ${name} is not a valid metric for realtime reports. Realtime reports accept realtime metrics only; see https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema`);
}

export function parseDimensions(list: unknown, ctx: ParseContext): RequestedDimension[] {
  const dims = arr(list).map((raw, i): RequestedDimension => {
    const d = obj(raw);
    const name = d.name;
    if (typeof name !== 'string' || !name) throw invalid(`dimensions[${i}].name is required.`);
    const expr = d.dimensionExpression === undefined ? undefined : obj(d.dimensionExpression);
    if (!expr) {
      checkDimensionName(name, ctx);
      return { name, underlying: [name], format: (v) => v[0]! };
    }
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw invalid(`Dimension name ${name} for an expression must be alphanumeric or underscore.`);
    const one = (e: Json, f: (x: string) => string): RequestedDimension => {
      const src = String(e.dimensionName ?? '');
      checkDimensionName(src, ctx);
      return { name, underlying: [src], format: (v) => f(v[0]!) };
    };
    if (expr.lowerCase) return one(obj(expr.lowerCase), (x) => x.toLowerCase());
    if (expr.upperCase) return one(obj(expr.upperCase), (x) => x.toUpperCase());
    if (expr.concatenate) {
      const c = obj(expr.concatenate);
      const names = arr(c.dimensionNames).map(String);
      if (names.length === 0) throw invalid(`dimensions[${i}].dimensionExpression.concatenate.dimensionNames must not be empty.`);
      names.forEach((n) => checkDimensionName(n, ctx));
      const delimiter = String(c.delimiter ?? '');
      return { name, underlying: names, format: (v) => v.join(delimiter) };
    }
    throw invalid(`dimensions[${i}].dimensionExpression must set lowerCase, upperCase or concatenate.`);
  });
  if (dims.length > 9) throw invalid(`Requests are limited to 9 dimensions; this request has ${dims.length}.`);
  const seen = new Set<string>();
  for (const d of dims) {
    if (seen.has(d.name)) throw invalid(`Duplicate dimension name ${d.name} in the request.`);
    seen.add(d.name);
  }
  return dims;
}

export function parseMetrics(list: unknown, ctx: ParseContext): RequestedMetric[] {
  const metrics = arr(list).map((raw, i): RequestedMetric => {
    const m = obj(raw);
    const name = m.name;
    if (typeof name !== 'string' || !name) throw invalid(`metrics[${i}].name is required.`);
    const visible = m.invisible !== true;
    if (typeof m.expression === 'string' && m.expression) {
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw invalid(`Metric name ${name} for an expression must be alphanumeric or underscore.`);
      const parsed = parseMetricExpression(m.expression);
      parsed.names.forEach((n) => checkMetricName(n, ctx));
      const defs = parsed.names.map((n) => METRIC_BY_NAME.get(n)!);
      return {
        name, visible, type: 'TYPE_FLOAT', needs: [...new Set(defs.flatMap((d) => d.needs))],
        value: (base) => parsed.evaluate((n) => METRIC_BY_NAME.get(n)!.compute(base)),
      };
    }
    checkMetricName(name, ctx);
    const def = METRIC_BY_NAME.get(name)!;
    return { name, visible, type: def.type, needs: [...def.needs], value: (base) => def.compute(base) };
  });
  if (metrics.length > 10) throw invalid(`Requests are limited to 10 metrics; this request has ${metrics.length}.`);
  const seen = new Set<string>();
  for (const m of metrics) {
    if (seen.has(m.name)) throw invalid(`Duplicate metric name ${m.name} in the request.`);
    seen.add(m.name);
  }
  return metrics;
}

/** Resolves `today`, `yesterday`, `NdaysAgo` and `YYYY-MM-DD` in the property's time zone. */
export function resolveDate(text: unknown, field: string, ctx: ParseContext): number {
  const today = zonedParts(ctx.now, ctx.timeZone).day;
  const s = String(text ?? '');
  if (s === 'today') return today;
  if (s === 'yesterday') return today - 1;
  const ago = /^(\d+)daysAgo$/.exec(s);
  if (ago) return today - Number(ago[1]);
  const day = parseIsoDate(s);
  if (day === undefined) throw invalid(`Invalid ${field} value "${s}". Dates must be YYYY-MM-DD, today, yesterday or NdaysAgo.`);
  if (day < Math.floor(Date.UTC(2015, 7, 14) / 86_400_000)) throw invalid(`${field} ${s} is before 2015-08-14, the earliest date the API accepts.`);
  return day;
}

function checkRangeName(name: string): void {
  if (name.startsWith('date_range_') || name.startsWith('RESERVED_')) throw invalid(`Date range name ${name} must not start with date_range_ or RESERVED_.`);
}

export function parseDateRanges(list: unknown, ctx: ParseContext): ResolvedRange[] {
  const ranges = arr(list).map((raw, i): ResolvedRange => {
    const r = obj(raw);
    const start = resolveDate(r.startDate, 'startDate', ctx);
    const end = resolveDate(r.endDate, 'endDate', ctx);
    if (start > end) throw invalid(`The dateRange startDate (${String(r.startDate)}) must be before or equal to the endDate (${String(r.endDate)}).`);
    const name = typeof r.name === 'string' && r.name ? r.name : `date_range_${i}`;
    if (r.name) checkRangeName(name);
    return { name, start: Math.max(start, FIRST_DAY - 1), end };
  });
  if (ranges.length === 0) throw invalid('At least one dateRange is required.');
  if (ranges.length > 4) throw invalid(`Requests are limited to 4 dateRanges; this request has ${ranges.length}.`);
  return ranges;
}

export function parseMinuteRanges(list: unknown): ResolvedRange[] {
  const given = arr(list);
  const ranges = (given.length ? given : [{}]).map((raw, i): ResolvedRange => {
    const r = obj(raw);
    const start = parseInt64(r.startMinutesAgo, `minuteRanges[${i}].startMinutesAgo`, 29);
    const end = parseInt64(r.endMinutesAgo, `minuteRanges[${i}].endMinutesAgo`, 0);
    if (start > 29 || start < 0 || end < 0) throw invalid(`minuteRanges[${i}]: minutes ago must be between 0 and 29 on a standard property.`);
    if (end > start) throw invalid(`minuteRanges[${i}]: endMinutesAgo (${end}) must be less than or equal to startMinutesAgo (${start}).`);
    const name = typeof r.name === 'string' && r.name ? r.name : `date_range_${i}`;
    if (r.name) checkRangeName(name);
    return { name, start, end };
  });
  if (ranges.length > 2) throw invalid(`Realtime requests are limited to 2 minuteRanges; this request has ${ranges.length}.`);
  return ranges;
}

export function parseOrderBys(list: unknown, dims: RequestedDimension[], metrics: RequestedMetric[], withRange: boolean): OrderBy[] {
  return arr(list).map((raw, i): OrderBy => {
    const o = obj(raw);
    const desc = o.desc === true;
    if (o.metric !== undefined) {
      const name = String(obj(o.metric).metricName ?? '');
      if (!metrics.some((m) => m.name === name)) throw invalid(`orderBys[${i}]: metric ${name} is not one of the request's metrics.`);
      return { desc, metric: name };
    }
    if (o.dimension !== undefined) {
      const d = obj(o.dimension);
      const name = String(d.dimensionName ?? '');
      if (!dims.some((x) => x.name === name) && !(withRange && name === 'dateRange')) throw invalid(`orderBys[${i}]: dimension ${name} is not one of the request's dimensions.`);
      const orderType = String(d.orderType ?? 'ALPHANUMERIC');
      if (!['ALPHANUMERIC', 'CASE_INSENSITIVE_ALPHANUMERIC', 'NUMERIC', 'ORDER_TYPE_UNSPECIFIED'].includes(orderType)) throw invalid(`orderBys[${i}]: invalid orderType ${orderType}.`);
      return { desc, dimension: name, orderType: orderType === 'ORDER_TYPE_UNSPECIFIED' ? 'ALPHANUMERIC' : (orderType as OrderBy['orderType']) };
    }
    if (o.pivot !== undefined) throw invalid(`orderBys[${i}]: pivot orderBys are only valid in pivot reports.`);
    throw invalid(`orderBys[${i}] must set metric or dimension.`);
  });
}

export function parseAggregations(list: unknown): string[] {
  const out = arr(list).map(String);
  for (const a of out) if (!['TOTAL', 'MINIMUM', 'MAXIMUM', 'COUNT'].includes(a)) throw invalid(`Invalid metricAggregation ${a}.`);
  return out;
}

/** Compiles both filters; a dimension filter may use unrequested dimensions, a metric filter only request metrics. */
export function parseFilters(body: Json, dims: RequestedDimension[], metrics: RequestedMetric[], ctx: ParseContext): { dimensionFilter?: CompiledFilter; metricFilter?: CompiledFilter } {
  const dimensionFilter = body.dimensionFilter === undefined ? undefined : compileFilter(body.dimensionFilter, (name) => {
    if (dims.some((d) => d.name === name)) return;
    if (METRIC_BY_NAME.has(name)) throw invalid(`Filter field ${name} is a metric; a dimensionFilter may only use dimensions.`);
    checkDimensionName(name, ctx);
  }, 'dimensionFilter');
  const metricFilter = body.metricFilter === undefined ? undefined : compileFilter(body.metricFilter, (name) => {
    if (metrics.some((m) => m.name === name)) return;
    if (DIMENSION_BY_NAME.has(name)) throw invalid(`Filter field ${name} is a dimension; a metricFilter may only use metrics.`);
    throw invalid(`metricFilter field ${name} must be one of the request's metrics.`);
  }, 'metricFilter');
  return { dimensionFilter, metricFilter };
}

/** Item-scoped dimensions only combine with item-scoped metrics (the one compatibility rule the sandbox models). */
export function assertCompatible(dimNames: string[], metricNames: string[]): void {
  const itemDim = dimNames.find((d) => DIMENSION_BY_NAME.get(d)?.item);
  if (!itemDim) return;
  const other = metricNames.find((m) => !METRIC_BY_NAME.get(m)?.item);
  if (other) throw incompatible(itemDim);
}

export function parseReportQuery(body: Json, ctx: ParseContext): ReportQuery {
  const dimensions = parseDimensions(body.dimensions, ctx);
  const metrics = parseMetrics(body.metrics, ctx);
  if (dimensions.length === 0 && metrics.length === 0) throw invalid('At least one dimension or metric is required.');
  const ranges = ctx.surface === 'realtime' ? parseMinuteRanges(body.minuteRanges) : parseDateRanges(body.dateRanges, ctx);
  const { dimensionFilter, metricFilter } = parseFilters(body, dimensions, metrics, ctx);
  const schemaMetrics = metrics.flatMap((m) => (METRIC_BY_NAME.has(m.name) ? [m.name] : []));
  assertCompatible([...dimensions.flatMap((d) => d.underlying), ...(dimensionFilter?.fields ?? [])], schemaMetrics);
  const limit = parseInt64(body.limit, 'limit', 10_000);
  if (limit < 0) throw invalid(`limit must be positive; got ${limit}.`);
  const offset = parseInt64(body.offset, 'offset', 0);
  if (offset < 0) throw invalid(`offset must be non-negative; got ${offset}.`);
  return {
    surface: ctx.surface,
    dimensions,
    metrics,
    ranges,
    dimensionFilter,
    metricFilter,
    orderBys: parseOrderBys(body.orderBys, dimensions, metrics, ranges.length > 1),
    limit: Math.min(limit === 0 ? 10_000 : limit, 250_000),
    offset,
    keepEmptyRows: body.keepEmptyRows === true,
    aggregations: parseAggregations(body.metricAggregations),
    returnPropertyQuota: body.returnPropertyQuota === true,
  };
}
