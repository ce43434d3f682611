// From engine rows to the wire: metric values, metric filter, orderBys, limit/offset, aggregates and the
// proto3 JSON shape (strings for values, defaults omitted, no `rows` key when empty).
import { BASE_PLAN } from './fields.ts';
import type { EngineResult } from './report-engine.ts';
import type { OrderBy, ReportQuery, RequestedMetric } from './report-request.ts';

export interface ValuedRow {
  range: number;
  dimensionValues: string[];
  values: number[];
  /** The engine's integer base totals behind the values (for TOTAL aggregates). */
  base: number[];
  /** Position in engine order: the final, deterministic tie-break of every sort. */
  seq: number;
}

export type WireRow = { dimensionValues?: { value: string }[]; metricValues: { value: string }[] };

export function valueRows(result: EngineResult, metrics: RequestedMetric[], currencyRate: number): ValuedRow[] {
  const index = new Map(result.baseKeys.map((k, i) => [k, i]));
  let current: number[] = [];
  const base = (key: string) => {
    const i = index.get(key);
    return i === undefined ? 0 : current[i]!;
  };
  return result.rows.map((row, seq) => {
    current = row.base;
    const values: number[] = [];
    for (let m = 0; m < metrics.length; m++) values[m] = convert(metrics[m]!, metrics[m]!.value(base), currencyRate);
    return { range: row.range, dimensionValues: row.dimensionValues, base: row.base, values, seq };
  });
}

function convert(m: RequestedMetric, value: number, rate: number): number {
  return m.type === 'TYPE_CURRENCY' && rate !== 1 ? Math.round(value * rate * 100) / 100 : value;
}

export function formatValue(metric: RequestedMetric, value: number): string {
  if (metric.type === 'TYPE_INTEGER') return String(Math.round(value));
  if (!Number.isFinite(value)) return '0';
  return String(Number.isInteger(value) ? value : Number(value.toPrecision(15)));
}

export function applyMetricFilter(rows: ValuedRow[], query: ReportQuery): ValuedRow[] {
  const filter = query.metricFilter;
  if (!filter) return rows;
  const index = new Map(query.metrics.map((m, i) => [m.name, i]));
  return rows.filter((r) => filter.test((name) => r.values[index.get(name)!]!));
}

export function compareRows(orderBys: OrderBy[], dimNames: string[], metrics: RequestedMetric[]): (a: ValuedRow, b: ValuedRow) => number {
  const effective: OrderBy[] = orderBys.length
    ? orderBys
    : metrics.length ? [{ desc: true, metric: metrics[0]!.name }] : [];
  const steps = effective.map((o) => {
    const sign = o.desc ? -1 : 1;
    if (o.metric !== undefined) {
      const i = metrics.findIndex((m) => m.name === o.metric);
      return (a: ValuedRow, b: ValuedRow) => sign * (a.values[i]! - b.values[i]!);
    }
    const i = dimNames.indexOf(o.dimension!);
    if (o.orderType === 'NUMERIC') {
      // Non-numeric values sort below all numeric ones.
      const num = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : -Infinity);
      return (a: ValuedRow, b: ValuedRow) => {
        const x = num(a.dimensionValues[i]!), y = num(b.dimensionValues[i]!);
        return sign * (x === y ? 0 : x < y ? -1 : 1);
      };
    }
    const norm = o.orderType === 'CASE_INSENSITIVE_ALPHANUMERIC' ? (s: string) => s.toLowerCase() : (s: string) => s;
    return (a: ValuedRow, b: ValuedRow) => {
      const x = norm(a.dimensionValues[i]!), y = norm(b.dimensionValues[i]!);
      return sign * (x === y ? 0 : x < y ? -1 : 1);
    };
  });
  // A stable, total tie-break so pages of one result never overlap or skip rows.
  return (a, b) => {
    for (const s of steps) {
      const d = s(a, b);
      if (d !== 0) return d;
    }
    return a.seq - b.seq;
  };
}

export function toWireRow(row: { dimensionValues: string[]; values: number[] }, metrics: RequestedMetric[]): WireRow {
  const visible = metrics.map((m, i) => [m, row.values[i]!] as const).filter(([m]) => m.visible);
  const metricValues = visible.map(([m, v]) => ({ value: formatValue(m, v) }));
  return row.dimensionValues.length ? { dimensionValues: row.dimensionValues.map((value) => ({ value })), metricValues } : { metricValues };
}

const NOT_ADDITIVE = new Set(BASE_PLAN.filter((m) => m.reach !== undefined).map((m) => m.key));

const SENTINEL: Record<string, string> = { TOTAL: 'RESERVED_TOTAL', MINIMUM: 'RESERVED_MIN', MAXIMUM: 'RESERVED_MAX', COUNT: 'RESERVED_COUNT' };

/**
 * Aggregate rows (one per date range): sums of the engine's base totals re-derived through each metric, except
 * that users (and sessions over pages or events) are counted once, as GA does: their TOTAL is the smaller of the
 * rows' sum and the unbroken report's. MIN/MAX/COUNT over the rows' values.
 */
export function aggregateRows(kind: string, rows: ValuedRow[], result: EngineResult, query: ReportQuery, dimNames: string[], currencyRate: number): WireRow[] {
  const rangeCol = dimNames.indexOf('dateRange');
  const ranges = query.ranges.map((r, i) => ({ name: r.name, i }));
  const index = new Map(result.baseKeys.map((k, i) => [k, i]));
  return ranges.filter((r) => rows.some((row) => row.range === r.i) || ranges.length === 1).map((r) => {
    const mine = rows.filter((row) => row.range === r.i);
    let values: number[];
    if (kind === 'TOTAL') {
      const sums = new Float64Array(result.baseKeys.length);
      for (const row of mine) {
        const b = row.base;
        for (let k = 0; k < sums.length; k++) sums[k]! += b[k]!;
      }
      const unique = result.uniqueTotals?.()[r.i];
      if (unique) for (const [k, key] of result.baseKeys.entries()) if (NOT_ADDITIVE.has(key)) sums[k] = Math.min(sums[k]!, unique[k]!);
      values = query.metrics.map((m) => convert(m, m.value((key) => sums[index.get(key) ?? -1] ?? 0), currencyRate));
    } else if (kind === 'COUNT') {
      values = query.metrics.map(() => mine.length);
    } else {
      const pick = kind === 'MINIMUM' ? Math.min : Math.max;
      values = query.metrics.map((_, i) => (mine.length ? mine.reduce((acc, row) => pick(acc, row.values[i]!), kind === 'MINIMUM' ? Infinity : -Infinity) : 0));
    }
    const dimensionValues = dimNames.map((_, i) => (i === rangeCol ? r.name : SENTINEL[kind]!));
    return toWireRow({ dimensionValues, values }, query.metrics);
  });
}
