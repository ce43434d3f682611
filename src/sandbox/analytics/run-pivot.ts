// runPivotReport: the full breakdown is computed once, then each pivot picks, orders and pages its own
// dimension values; rows are the combinations of every pivot's selected values, in pivot order.
import { omitDefaults } from '../http.ts';
import type { PropertyContext } from './context.ts';
import { currencyRate } from './context.ts';
import { assertKnownFields, invalid } from './ga-errors.ts';
import { runEngine } from './report-engine.ts';
import { applyMetricFilter, compareRows, toWireRow, valueRows, type ValuedRow } from './report-output.ts';
import { parseInt64, parseOrderBys, parseReportQuery } from './report-request.ts';
import { assertSameProperty, unsupported, type Json } from './run-report.ts';

const PIVOT_FIELDS = ['property', 'dimensions', 'metrics', 'dateRanges', 'pivots', 'dimensionFilter', 'metricFilter', 'currencyCode', 'cohortSpec',
  'keepEmptyRows', 'returnPropertyQuota', 'comparisons'];

const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

export function runPivotReport(ctx: PropertyContext, body: Json): { response: Json; rowCount: number } {
  assertKnownFields(body, PIVOT_FIELDS);
  assertSameProperty(body, ctx.site.analytics.propertyId);
  unsupported(body);
  const currency = currencyRate(ctx.site.currency, body.currencyCode);
  const query = parseReportQuery(body, { surface: 'core', timeZone: ctx.site.timezone, now: ctx.now, customDefinitions: true });
  const result = runEngine(ctx.model, ctx.families, query, ctx.site.timezone, ctx.now);
  const dimNames = result.dimensions.map((d) => d.name);
  const pivots = (Array.isArray(body.pivots) ? body.pivots : []).map((raw, i) => {
    const p = obj(raw);
    const fieldNames = (Array.isArray(p.fieldNames) ? p.fieldNames : []).map(String);
    if (fieldNames.length === 0) throw invalid(`pivots[${i}].fieldNames must not be empty.`);
    for (const f of fieldNames) if (!dimNames.includes(f)) throw invalid(`pivots[${i}]: ${f} is not one of the request's dimensions.`);
    if (p.limit === undefined) throw invalid(`pivots[${i}].limit is required.`);
    const limit = parseInt64(p.limit, `pivots[${i}].limit`, 0);
    if (limit <= 0) throw invalid(`pivots[${i}].limit must be positive.`);
    const dims = result.dimensions.filter((d) => fieldNames.includes(d.name));
    return {
      fieldNames, limit, offset: parseInt64(p.offset, `pivots[${i}].offset`, 0),
      orderBys: parseOrderBys(p.orderBys, dims, query.metrics, fieldNames.includes('dateRange')),
      aggregations: (Array.isArray(p.metricAggregations) ? p.metricAggregations : []).map(String),
      columns: fieldNames.map((f) => dimNames.indexOf(f)),
    };
  });
  if (pivots.length === 0) throw invalid('A pivot report needs at least one pivot.');
  const used = pivots.flatMap((p) => p.fieldNames);
  if (new Set(used).size !== used.length) throw invalid('A dimension may appear in only one pivot.');
  for (const d of dimNames) if (!used.includes(d)) throw invalid(`Dimension ${d} must be used in a pivot.`);
  if (pivots.reduce((a, p) => a * p.limit, 1) > 250_000) throw invalid('The product of all pivots\' limits must be at most 250,000.');

  const rows = applyMetricFilter(valueRows(result, query.metrics, currency.rate), query)
    .filter((r) => query.keepEmptyRows || r.values.some((v) => v !== 0));
  const keyOf = (r: ValuedRow, cols: number[]) => cols.map((c) => r.dimensionValues[c]!).join('\u0001');
  const selections = pivots.map((p) => {
    const groups = new Map<string, ValuedRow>();
    for (const r of rows) {
      const key = keyOf(r, p.columns);
      const g = groups.get(key);
      if (!g) groups.set(key, { range: 0, seq: groups.size, dimensionValues: p.columns.map((c) => r.dimensionValues[c]!), base: [...r.base], values: [] });
      else r.base.forEach((v, k) => (g.base[k]! += v));
    }
    const list = [...groups.values()];
    const index = new Map(result.baseKeys.map((k, i) => [k, i]));
    for (const g of list) g.values = query.metrics.map((m) => m.value((k) => g.base[index.get(k) ?? -1] ?? 0));
    list.sort(compareRows(p.orderBys, p.fieldNames, query.metrics));
    const picked = list.slice(p.offset, p.offset + p.limit);
    return { pivot: p, picked, rank: new Map(picked.map((g, i) => [g.dimensionValues.join('\u0001'), i])), rowCount: list.length };
  });
  const kept = rows.filter((r) => selections.every((s) => s.rank.has(keyOf(r, s.pivot.columns))));
  kept.sort((a, b) => {
    for (const s of selections) {
      const d = s.rank.get(keyOf(a, s.pivot.columns))! - s.rank.get(keyOf(b, s.pivot.columns))!;
      if (d !== 0) return d;
    }
    return a.seq - b.seq;
  });
  const aggregates = selections.flatMap((s) => {
    if (!s.pivot.aggregations.includes('TOTAL')) return [];
    // One total per combination of the other pivots' values, with RESERVED_TOTAL in this pivot's columns.
    const totals = new Map<string, { dims: string[]; values: number[] }>();
    for (const r of kept) {
      const dims = r.dimensionValues.map((v, c) => (s.pivot.columns.includes(c) ? 'RESERVED_TOTAL' : v));
      const key = dims.join('\u0001');
      const t = totals.get(key);
      if (!t) totals.set(key, { dims, values: [...r.values] });
      else r.values.forEach((v, i) => (t.values[i]! += v));
    }
    return [...totals.values()].map((t) => toWireRow({ dimensionValues: t.dims, values: t.values }, query.metrics));
  });
  const response = {
    pivotHeaders: selections.map((s) => ({
      pivotDimensionHeaders: s.picked.map((g) => ({ dimensionValues: g.dimensionValues.map((value) => ({ value })) })),
      rowCount: s.rowCount,
    })),
    dimensionHeaders: dimNames.map((name) => ({ name })),
    metricHeaders: query.metrics.filter((m) => m.visible).map((m) => ({ name: m.name, type: m.type })),
    rows: kept.map((r) => toWireRow(r, query.metrics)),
    aggregates,
    metadata: { currencyCode: currency.code, timeZone: ctx.site.timezone },
    kind: 'analyticsData#runPivotReport',
  };
  return { response: omitDefaults(response), rowCount: kept.length };
}
