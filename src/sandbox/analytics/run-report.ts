// runReport and runRealtimeReport: parse → engine → shape, returning the provider's JSON object.
import { omitDefaults } from '../http.ts';
import type { PropertyContext } from './context.ts';
import { currencyRate } from './context.ts';
import { assertKnownFields, invalid } from './ga-errors.ts';
import { applyCaveats, type Caveats } from './report-caveats.ts';
import { runEngine } from './report-engine.ts';
import { aggregateRows, applyMetricFilter, compareRows, toWireRow, valueRows, type ValuedRow } from './report-output.ts';
import { parseReportQuery, type ReportQuery } from './report-request.ts';

export const RUN_REPORT_FIELDS = ['property', 'dimensions', 'metrics', 'dateRanges', 'dimensionFilter', 'metricFilter', 'offset', 'limit',
  'metricAggregations', 'orderBys', 'currencyCode', 'cohortSpec', 'keepEmptyRows', 'returnPropertyQuota', 'comparisons'];
export const REALTIME_FIELDS = ['property', 'dimensions', 'metrics', 'dimensionFilter', 'metricFilter', 'limit', 'metricAggregations', 'orderBys',
  'returnPropertyQuota', 'minuteRanges'];

export type Json = Record<string, unknown>;

export function assertSameProperty(body: Json, propertyId: string): void {
  if (body.property !== undefined && body.property !== '' && body.property !== `properties/${propertyId}`) {
    throw invalid(`The property in the request body (${String(body.property)}) does not match properties/${propertyId}.`);
  }
}

export function unsupported(body: Json): void {
  // Cohorts and comparisons are real API features the sandbox does not model; say so instead of answering wrongly.
  if (body.cohortSpec !== undefined) throw invalid('cohortSpec is not supported by the Siteline sandbox.');
  if (body.comparisons !== undefined) throw invalid('comparisons are not supported by the Siteline sandbox.');
}

export interface ReportOutcome {
  response: Json;
  query: ReportQuery;
  rowCount: number;
}

export function runReport(ctx: PropertyContext, body: Json): ReportOutcome {
  assertKnownFields(body, RUN_REPORT_FIELDS);
  assertSameProperty(body, ctx.site.analytics.propertyId);
  unsupported(body);
  const currency = currencyRate(ctx.site.currency, body.currencyCode);
  const query = parseReportQuery(body, { surface: 'core', timeZone: ctx.site.timezone, now: ctx.now, customDefinitions: true });
  const shaped = shape(ctx, query, currency.rate, 'analyticsData#runReport');
  const response = {
    ...shaped.response,
    metadata: { currencyCode: currency.code, timeZone: ctx.site.timezone, ...shaped.caveats },
    kind: 'analyticsData#runReport',
  };
  return { response: omitDefaults(response), query, rowCount: shaped.rowCount };
}

export function runRealtimeReport(ctx: PropertyContext, body: Json): ReportOutcome {
  assertKnownFields(body, REALTIME_FIELDS);
  assertSameProperty(body, ctx.site.analytics.propertyId);
  const query = parseReportQuery(body, { surface: 'realtime', timeZone: ctx.site.timezone, now: ctx.now, customDefinitions: false });
  const shaped = shape(ctx, query, 1, 'analyticsData#runRealtimeReport');
  return { response: omitDefaults({ ...shaped.response, kind: 'analyticsData#runRealtimeReport' }), query, rowCount: shaped.rowCount };
}

function shape(ctx: PropertyContext, query: ReportQuery, rate: number, _kind: string): { response: Json; rowCount: number; caveats: Caveats } {
  const result = runEngine(ctx.model, ctx.families, query, ctx.site.timezone, ctx.now);
  const caveats = applyCaveats(result, query, ctx.model);
  const dimNames = result.dimensions.map((d) => d.name);
  let rows = valueRows(result, query.metrics, rate);
  const visible = query.metrics.map((m) => m.visible);
  if (!query.keepEmptyRows && visible.some(Boolean)) {
    rows = rows.filter((r) => {
      for (let i = 0; i < visible.length; i++) if (visible[i] && r.values[i] !== 0) return true;
      return false;
    });
  }
  rows = applyMetricFilter(rows, query);
  rows = sortRows(rows, query, dimNames);
  const page = rows.slice(query.offset, query.offset + query.limit);
  const agg = (kind: string) => (query.aggregations.includes(kind) ? aggregateRows(kind, rows, result, query, dimNames, rate) : undefined);
  return {
    rowCount: rows.length,
    caveats,
    response: {
      dimensionHeaders: dimNames.map((name) => ({ name })),
      metricHeaders: query.metrics.filter((m) => m.visible).map((m) => ({ name: m.name, type: m.type })),
      rows: page.map((r) => toWireRow(r, query.metrics)),
      totals: agg('TOTAL'),
      maximums: agg('MAXIMUM'),
      minimums: agg('MINIMUM'),
      rowCount: rows.length,
    },
  };
}

/**
 * Orders rows; when every sort key is a metric (the common case) it avoids comparators over row objects:
 * one integer key packs (key, engine order) into a double and sorts natively, several keys sort an index.
 */
function sortRows(rows: ValuedRow[], query: ReportQuery, dimNames: string[]): ValuedRow[] {
  const orderBys = query.orderBys.length ? query.orderBys : query.metrics.length ? [{ desc: true, metric: query.metrics[0]!.name }] : [];
  if (!orderBys.every((o) => o.metric !== undefined)) return rows.sort(compareRows(query.orderBys, dimNames, query.metrics));
  const keys = orderBys.map((o) => {
    const i = query.metrics.findIndex((m) => m.name === o.metric);
    const sign = o.desc ? -1 : 1;
    return Float64Array.from(rows, (r) => sign * r.values[i]!);
  });
  const SEQ = 2 ** 21;
  const first = keys[0];
  if (keys.length === 1 && first && rows.length < SEQ && first.every((v) => Number.isInteger(v) && Math.abs(v) < 2 ** 31)) {
    const packed = Float64Array.from(first, (v, i) => v * SEQ + i); // position order is engine order
    packed.sort();
    return Array.from(packed, (x) => rows[((x % SEQ) + SEQ) % SEQ]!);
  }
  const order = rows.map((_, i) => i);
  order.sort((a, b) => {
    for (const k of keys) {
      const d = k[a]! - k[b]!;
      if (d !== 0) return d;
    }
    return rows[a]!.seq - rows[b]!.seq;
  });
  return order.map((i) => rows[i]!);
}
