// Turns a parsed query into aggregated rows: time cells × the family product, apportioned, filtered and
// projected onto the requested dimensions. Every row's base totals are exact integers that sum to the cells'.
import { apportionCells, buildComboTable, unplantedTotals, type ComboTable, type Family } from '../data/cube.ts';
import type { SiteModel } from '../data/site-model.ts';
import { DIMENSION_BY_NAME, planFor } from './fields.ts';
import type { FieldGetter } from './filters.ts';
import type { ReportQuery, RequestedDimension } from './report-request.ts';
import { coreCells, realtimeCells, type Cell } from './time-cells.ts';

export interface EngineRow {
  range: number;
  dimensionValues: string[];
  /** Integer base totals in `baseKeys` order. */
  base: number[];
}

export interface EngineResult {
  /** Output dimension columns: the requested ones plus `dateRange` when several ranges were asked for. */
  dimensions: RequestedDimension[];
  rows: EngineRow[];
  baseKeys: string[];
  /**
   * Per date range, the base totals of the unbroken report (users de-duplicated, sessions counted once): the
   * ceiling of a TOTAL of non-additive metrics, which is not the sum of its rows (undefined for realtime).
   */
  uniqueTotals?: () => number[][];
}

const RANGE_DIMENSION: RequestedDimension = { name: 'dateRange', underlying: ['dateRange'], format: (v) => v[0]! };

export function outputDimensions(query: ReportQuery): RequestedDimension[] {
  const dims = [...query.dimensions];
  if (query.ranges.length > 1 && !dims.some((d) => d.name === 'dateRange')) dims.push(RANGE_DIMENSION);
  return dims;
}

export function runEngine(model: SiteModel, families: readonly Family[], query: ReportQuery, timeZone: string, now: Date): EngineResult {
  const dimensions = outputDimensions(query);
  const needed = new Set<string>();
  for (const d of dimensions) d.underlying.forEach((u) => needed.add(u));
  const requestedNames = new Map(dimensions.map((d) => [d.name, d]));
  for (const f of query.dimensionFilter?.fields ?? []) {
    const req = requestedNames.get(f);
    (req ? req.underlying : [f]).forEach((u) => needed.add(u));
  }
  const timeDims = [...needed].filter((d) => DIMENSION_BY_NAME.get(d)?.source === 'time');
  const familyDims = [...needed].filter((d) => DIMENSION_BY_NAME.get(d)?.source === 'family');
  const plan = planFor(query.metrics.flatMap((m) => m.needs));
  const baseKeys = plan.map((m) => m.key);
  const cells: Cell[] = query.surface === 'realtime'
    ? realtimeCells(model, timeZone, now, query.ranges, timeDims, baseKeys)
    : coreCells(model, timeZone, now, query.ranges, timeDims, plan);

  // Pruning follows the unplanted totals, so a planted event never changes which combinations exist.
  let maxTotal = 1;
  for (const c of cells) {
    const totals = unplantedTotals(c);
    for (const k of baseKeys) maxTotal = Math.max(maxTotal, totals[k] ?? 0);
  }
  const table = buildComboTable(families, familyDims, query.keepEmptyRows ? 0 : 0.3 / maxTotal);
  if (!query.keepEmptyRows) keepEachRangesOwnCombinations(cells, table, (max) => buildComboTable(families, familyDims, 0.3 / max), baseKeys);

  const timeIndex = new Map(timeDims.map((d, i) => [d, i]));
  const familyIndex = new Map(familyDims.map((d, i) => [d, i]));
  const rawValue = (dim: string, t: number, c: number): string => {
    const ti = timeIndex.get(dim);
    if (ti !== undefined) return cells[t]!.timeValues[ti]!;
    const fi = familyIndex.get(dim);
    if (fi !== undefined) return table.value(c, fi);
    return query.ranges[cells[t]!.range]!.name; // dateRange
  };
  const valueOf = (d: RequestedDimension, t: number, c: number) => d.format(d.underlying.map((u) => rawValue(u, t, c)));

  // Which (cell, combination) pairs pass the dimension filter; per combination when no time field is involved.
  const filter = query.dimensionFilter;
  const filterGetter = (t: number, c: number): FieldGetter => (field) => {
    const req = requestedNames.get(field);
    return req ? valueOf(req, t, c) : rawValue(field, t, c);
  };
  const filterNeedsTime = filter ? [...filter.fields].some((f) => (requestedNames.get(f)?.underlying ?? [f]).some((u) => !familyIndex.has(u))) : false;
  let comboPass: Uint8Array | undefined;
  if (filter && !filterNeedsTime) {
    comboPass = new Uint8Array(table.size);
    for (let c = 0; c < table.size; c++) comboPass[c] = filter.test(filterGetter(0, c)) ? 1 : 0;
  }

  // Projection: the requested family values of a combination, and the requested time/range values of a cell.
  const familyParts = dimensions.filter((d) => d.underlying.every((u) => familyIndex.has(u)));
  const mixedParts = dimensions.filter((d) => !familyParts.includes(d));
  const comboProj = new Int32Array(table.size);
  const comboKeys = new Map<string, number>();
  for (let c = 0; c < table.size; c++) {
    const key = familyParts.map((d) => valueOf(d, 0, c)).join('\u0001');
    let idx = comboKeys.get(key);
    if (idx === undefined) comboKeys.set(key, (idx = comboKeys.size));
    comboProj[c] = idx;
  }
  const mixedNeedsCombo = mixedParts.some((d) => d.underlying.some((u) => familyIndex.has(u)));
  const cellProj = new Int32Array(cells.length);
  const cellKeys = new Map<string, number>();
  cells.forEach((cell, t) => {
    const key = `${cell.range}\u0002${mixedNeedsCombo ? '' : mixedParts.map((d) => valueOf(d, t, 0)).join('\u0001')}`;
    let idx = cellKeys.get(key);
    if (idx === undefined) cellKeys.set(key, (idx = cellKeys.size));
    cellProj[t] = idx;
  });
  const nCombo = Math.max(1, comboKeys.size);
  const rowIndex = new Map<number | string, number>();
  // Dense index when the projected space is small enough (the common case), a Map otherwise.
  const dense = !mixedNeedsCombo && cellKeys.size * nCombo <= 4_000_000 ? new Int32Array(cellKeys.size * nCombo).fill(-1) : undefined;
  const rows: EngineRow[] = [];
  const repCell: number[] = [];
  const repCombo: number[] = [];
  const nKeys = baseKeys.length;
  const zero: number[] = baseKeys.map(() => 0);

  // Jitter is seeded per time cell, so a day's rows are the same however many days were asked; cells without a
  // time dimension have no jitter key.
  apportionCells(table, cells, plan, 0.15, (t, values) => {
    const columns = baseKeys.map((k) => values[k]!);
    for (let c = 0; c < table.size; c++) {
      if (!query.keepEmptyRows) {
        let any = false;
        for (let k = 0; k < nKeys; k++) if (columns[k]![c]! !== 0) { any = true; break; }
        if (!any) continue;
      }
      if (comboPass ? !comboPass[c] : filter ? !filter.test(filterGetter(t, c)) : false) continue;
      const key: number | string = mixedNeedsCombo
        ? `${cellProj[t]}\u0002${mixedParts.map((d) => valueOf(d, t, c)).join('\u0001')}\u0002${comboProj[c]}`
        : cellProj[t]! * nCombo + comboProj[c]!;
      let r = dense ? dense[key as number]! : rowIndex.get(key) ?? -1;
      if (r < 0) {
        r = rows.length;
        if (dense) dense[key as number] = r;
        else rowIndex.set(key, r);
        rows.push({ range: cells[t]!.range, dimensionValues: [], base: zero.slice() });
        repCell.push(t);
        repCombo.push(c);
      }
      const base = rows[r]!.base;
      for (let k = 0; k < nKeys; k++) base[k]! += columns[k]![c]!;
    }
  });
  rows.forEach((row, i) => {
    row.dimensionValues = dimensions.map((d) => valueOf(d, repCell[i]!, repCombo[i]!));
  });
  const uniqueTotals = query.surface === 'realtime'
    ? undefined
    : () => {
        const whole = coreCells(model, timeZone, now, query.ranges, [], plan);
        return query.ranges.map((_, r) => baseKeys.map((k) => whole.filter((c) => c.range === r).reduce((a, c) => a + (c.totals[k] ?? 0), 0)));
      };
  return { dimensions, rows, baseKeys, uniqueTotals };
}

/**
 * Pruning follows each range's own totals: the table is pruned for the largest range, and a smaller range's cells
 * are split only over the combinations that range would keep alone. GA's numbers for a date range do not depend on
 * the other ranges asked with it (today's few users beside yesterday's many).
 */
function keepEachRangesOwnCombinations(cells: Cell[], table: ComboTable, pruned: (maxTotal: number) => ComboTable, baseKeys: readonly string[]): void {
  const maxByRange = new Map<number, number>();
  for (const c of cells) {
    const totals = unplantedTotals(c);
    let max = maxByRange.get(c.range) ?? 1;
    for (const k of baseKeys) max = Math.max(max, totals[k] ?? 0);
    maxByRange.set(c.range, max);
  }
  const overall = Math.max(...maxByRange.values());
  const keyOf = (t: ComboTable, c: number) => t.dims.map((_, i) => t.value(c, i)).join('\u0001');
  for (const [range, max] of maxByRange) {
    if (max >= overall) continue;
    const own = pruned(max);
    const kept = new Set(Array.from({ length: own.size }, (_, c) => keyOf(own, c)));
    const within = new Uint8Array(table.size);
    for (let c = 0; c < table.size; c++) within[c] = kept.has(keyOf(table, c)) ? 1 : 0;
    for (const cell of cells) if (cell.range === range) cell.within = within;
  }
}
