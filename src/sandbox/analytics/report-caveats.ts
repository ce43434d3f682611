// The caveats GA attaches to a report's metadata, applied to the engine's rows the way the real API does:
// thresholding (demographic dimensions: rows with few users are withheld), the "(other)" row past the cardinality
// limit, and sampling metadata on very large multi-year requests of a big property.
import type { SiteModel } from '../data/site-model.ts';
import type { EngineResult } from './report-engine.ts';
import type { ReportQuery } from './report-request.ts';
import { DIMENSION_BY_NAME } from './fields.ts';

/** Google signals dimensions: reports using them are subject to thresholding. */
const DEMOGRAPHIC = new Set(['userAgeBracket', 'userGender']);
/** Users below which a thresholded row is withheld (Google does not publish its threshold; 50 is typical). */
export const USER_THRESHOLD = 50;
/** Distinct non-time dimension values per date range before the rest becomes "(other)" (lowered from GA's 50,000 for standard properties so the demo reaches it). */
export const CARDINALITY_LIMIT = 25_000;
/** Requests reading more days than this of a property with more sessions per day than SAMPLED_SESSIONS are sampled. */
const SAMPLED_DAYS = 3 * 365;
const SAMPLED_SESSIONS = 10_000;
const SAMPLE_SIZE = 10_000_000;

export interface Caveats {
  subjectToThresholding?: boolean;
  dataLossFromOtherRow?: boolean;
  samplingMetadatas?: { samplesReadCount: string; samplingSpaceSize: string }[];
}

/** Applies thresholding and the (other) row to the engine's rows in place; returns the metadata flags. */
export function applyCaveats(result: EngineResult, query: ReportQuery, model: SiteModel): Caveats {
  const caveats: Caveats = {};
  if (query.surface !== 'core') return caveats;
  if (query.dimensions.some((d) => d.underlying.some((u) => DEMOGRAPHIC.has(u)))) {
    caveats.subjectToThresholding = true;
    const users = result.baseKeys.indexOf('totalUsers');
    if (users >= 0) result.rows = result.rows.filter((r) => r.base[users]! >= USER_THRESHOLD);
  }
  if (result.rows.length > CARDINALITY_LIMIT && rollUpOther(result)) caveats.dataLossFromOtherRow = true;
  const sampling = samplingOf(query, model);
  if (sampling) caveats.samplingMetadatas = sampling;
  return caveats;
}

/** Keeps the heaviest CARDINALITY_LIMIT − 1 value tuples of each range; the rest add up in one "(other)" row. */
function rollUpOther(result: EngineResult): boolean {
  const valueColumns = result.dimensions.map((d, i) => (d.name !== 'dateRange' && d.underlying.every((u) => DIMENSION_BY_NAME.get(u)?.source === 'family') ? i : -1)).filter((i) => i >= 0);
  if (valueColumns.length === 0) return false;
  const keyOf = (values: string[]) => valueColumns.map((i) => values[i]).join('\u0001');
  const weight = new Map<string, number>();
  for (const row of result.rows) {
    const key = `${row.range}\u0002${keyOf(row.dimensionValues)}`;
    weight.set(key, (weight.get(key) ?? 0) + (row.base[0] ?? 0));
  }
  const byRange = new Map<number, [string, number][]>();
  for (const [key, w] of weight) {
    const range = Number(key.slice(0, key.indexOf('\u0002')));
    let list = byRange.get(range);
    if (!list) byRange.set(range, (list = []));
    list.push([key, w]);
  }
  const kept = new Set<string>();
  let lost = false;
  for (const list of byRange.values()) {
    list.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    list.slice(0, CARDINALITY_LIMIT - 1).forEach(([key]) => kept.add(key));
    lost ||= list.length > CARDINALITY_LIMIT - 1;
  }
  if (!lost) return false;
  const merged = new Map<string, EngineResult['rows'][number]>();
  const out: EngineResult['rows'] = [];
  for (const row of result.rows) {
    if (kept.has(`${row.range}\u0002${keyOf(row.dimensionValues)}`)) {
      out.push(row);
      continue;
    }
    const values = row.dimensionValues.map((v, i) => (valueColumns.includes(i) ? '(other)' : v));
    const key = `${row.range}\u0002${values.join('\u0001')}`;
    const into = merged.get(key);
    if (into) for (let k = 0; k < into.base.length; k++) into.base[k]! += row.base[k]!;
    else {
      const fresh = { range: row.range, dimensionValues: values, base: [...row.base] };
      merged.set(key, fresh);
      out.push(fresh);
    }
  }
  result.rows = out;
  return true;
}

function samplingOf(query: ReportQuery, model: SiteModel): Caveats['samplingMetadatas'] {
  const days = query.ranges.reduce((a, r) => a + (r.end - r.start + 1), 0);
  if (days <= SAMPLED_DAYS || model.size.sessions < SAMPLED_SESSIONS) return undefined;
  return query.ranges.map((r) => {
    let events = 0;
    for (let day = r.start; day <= r.end; day++) events += model.dailyTotals(day).eventCount ?? 0;
    return { samplesReadCount: String(Math.min(events, SAMPLE_SIZE)), samplingSpaceSize: String(events) };
  });
}
