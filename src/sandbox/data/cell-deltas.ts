// Planted changes as whole numbers added to a cell's parts: a change of N sessions in one segment goes to the
// combinations that segment reaches, in proportion to what each already has, and nowhere else. The rest of the
// cell keeps the parts it had without the event, byte for byte, and the parts still sum to the (moved) total.
import { apportion } from './apportion.ts';
import { hashString, unit } from './hash.ts';

/**
 * A day's change as a whole number, rounded up or down at random in proportion to its fraction (seeded by the day
 * and what changes): a segment losing 0.3 key events a day loses about 3 in 10 days, not none.
 */
export function wholeDelta(value: number, day: number, what: string): number {
  const floor = Math.floor(value);
  return floor + (unit(hashString(what), day) < value - floor ? 1 : 0);
}

/**
 * Adds `delta` (an integer, either sign) to `target`, split in proportion to `target × reach`. A loss never takes
 * a part below zero: what one combination cannot give is taken from the others that can. When the segment has
 * nothing yet to grow from, a gain follows `fallback × reach` (the combinations' weights).
 */
export function addDelta(target: Float64Array, delta: number, reach: Float64Array, fallback: Float64Array, parts: Float64Array, weights: Float64Array): void {
  const n = target.length;
  if (delta === 0) return;
  if (delta > 0) {
    let sum = 0;
    for (let c = 0; c < n; c++) sum += (weights[c] = target[c]! * reach[c]!);
    if (sum === 0) for (let c = 0; c < n; c++) weights[c] = fallback[c]! * reach[c]!;
    apportion(delta, weights, parts);
    for (let c = 0; c < n; c++) target[c]! += parts[c]!;
    return;
  }
  let left = -delta;
  for (let pass = 0; pass < 4 && left > 0; pass++) {
    let sum = 0;
    for (let c = 0; c < n; c++) sum += (weights[c] = target[c]! * reach[c]!);
    if (sum === 0) return;
    apportion(Math.min(left, Math.floor(sum) || left), weights, parts);
    for (let c = 0; c < n; c++) {
      const take = Math.min(parts[c]!, target[c]!);
      target[c]! -= take;
      left -= take;
    }
  }
}

/** Splits an integer change over parts in proportion to them (hours of a day, days of a week): signs kept. */
export function splitDelta(delta: number, parts: ArrayLike<number>, out: Float64Array): void {
  apportion(Math.abs(delta), parts, out);
  if (delta < 0) for (let i = 0; i < out.length; i++) out[i] = -out[i]!;
}

/** What of a combination table, a planted effect and a metric plan the deltas need (cube.ts has the full types). */
interface DeltaTable {
  weights: Float64Array;
  matchShare(where: DeltaEffect['where']): Float64Array;
}
interface DeltaEffect {
  where: readonly (readonly [string, string])[];
  delta?: Readonly<Record<string, number>>;
}
interface DeltaPlan {
  key: string;
  mode: string;
  parent?: string;
  capped?: boolean;
}

/**
 * Adds each planted delta to the combinations its conditions reach (in proportion to their parts), then keeps the
 * chain every split guarantees: users ≤ sessions, engaged ≤ sessions, views ≥ sessions.
 */
export function addDeltas(table: DeltaTable, effects: readonly DeltaEffect[], plan: readonly DeltaPlan[], values: Record<string, Float64Array>, parts: Float64Array, weights: Float64Array): void {
  let any = false;
  for (const effect of effects) {
    if (!effect.delta) continue;
    const reach = table.matchShare(effect.where);
    for (const m of plan) {
      const delta = Math.round(effect.delta[m.key] ?? 0);
      if (delta === 0 || m.mode === 'product') continue;
      addDelta(values[m.key]!, delta, reach, table.weights, parts, weights);
      any = true;
    }
  }
  if (!any) return;
  for (const m of plan) {
    const parent = m.parent ? values[m.parent] : undefined;
    if (!parent) continue;
    const out = values[m.key]!;
    if (m.mode === 'sub' || (m.mode === 'weighted' && m.capped)) for (let c = 0; c < out.length; c++) out[c] = Math.min(out[c]!, parent[c]!);
    else if (m.mode === 'super') for (let c = 0; c < out.length; c++) out[c] = Math.max(out[c]!, parent[c]!);
  }
}
