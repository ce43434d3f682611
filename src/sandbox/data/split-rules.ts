// Two rules every split keeps: counting noise in proportion to a part's size (small parts wobble as samples do),
// and a child never above its parent (engaged sessions ≤ sessions) without losing what the cap cut off.
import { apportion } from './apportion.ts';
import { gaussian } from './hash.ts';

/** Counting noise: each weight wobbles by about 1/√(its expected count), seeded by the cell, the combination and the metric. */
export function sampleNoise(weights: Float64Array, total: number, key: number, salt: number, hashes: Uint32Array): void {
  let sum = 0;
  for (let c = 0; c < weights.length; c++) sum += weights[c]!;
  if (sum <= 0 || total <= 0) return;
  for (let c = 0; c < weights.length; c++) {
    const expected = (total * weights[c]!) / sum;
    if (expected <= 0) continue;
    weights[c]! *= Math.exp(Math.min(0.5, 1 / Math.sqrt(Math.max(1, expected))) * gaussian(key, hashes[c]!, salt));
  }
}

/**
 * Caps every part at its parent's (engaged sessions ≤ sessions) and gives what was cut to the parts that still
 * have room, in proportion to their weights, so the parts keep summing to the total.
 */
export function keepWithin(out: Float64Array, caps: Float64Array, weights: Float64Array, scratch: Float64Array): void {
  let excess = 0;
  for (let c = 0; c < out.length; c++) {
    if (out[c]! > caps[c]!) {
      excess += out[c]! - caps[c]!;
      out[c] = caps[c]!;
    }
  }
  for (let pass = 0; pass < 4 && excess > 0; pass++) {
    const room = new Float64Array(out.length);
    let any = false;
    for (let c = 0; c < out.length; c++) if (out[c]! < caps[c]!) {
      room[c] = weights[c]! > 0 ? weights[c]! : caps[c]! - out[c]!;
      any = true;
    }
    if (!any) return;
    apportion(excess, room, scratch);
    excess = 0;
    for (let c = 0; c < out.length; c++) {
      const give = Math.min(scratch[c]!, caps[c]! - out[c]!);
      out[c]! += give;
      excess += scratch[c]! - give;
    }
  }
}
