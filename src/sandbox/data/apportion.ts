// Exact integer apportionment: splits a whole total over weighted cells so the parts always sum to the total.
// Largest remainder for ordinary sizes; for long tails (thousands of cells) systematic cumulative rounding,
// which keeps the same guarantees (exact sum, each part within one of its quota) in O(n) instead of a sort.

const SORT_LIMIT = 4096;

/**
 * Splits `total` (a non-negative integer) over `weights` into `out`. When the weights are themselves
 * integers summing to at least `total` (a parent metric), every part is ≤ its weight: that is how
 * users ≤ sessions ≤ pageviews survive every breakdown.
 */
export function apportion(total: number, weights: ArrayLike<number>, out: Float64Array, integerWeights = false): void {
  const n = weights.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i]!;
  if (total <= 0 || sum <= 0) {
    out.fill(0, 0, n);
    return;
  }
  if (integerWeights && total * sum < 9e15) return apportionIntegers(total, weights, sum, out);
  if (n > SORT_LIMIT) return cumulative(total, weights, sum, out);
  const remainders = new Float64Array(n);
  let assigned = 0;
  for (let i = 0; i < n; i++) {
    const quota = (total * weights[i]!) / sum;
    const whole = Math.floor(quota);
    out[i] = whole;
    remainders[i] = quota - whole;
    assigned += whole;
  }
  distribute(total - assigned, remainders, out);
}

function apportionIntegers(total: number, weights: ArrayLike<number>, sum: number, out: Float64Array): void {
  const n = weights.length;
  if (n > SORT_LIMIT) {
    // floor(total·C_i/sum) − floor(total·C_{i−1}/sum) ≤ ceil(total·w_i/sum) ≤ w_i when total ≤ sum.
    let cum = 0;
    let prev = 0;
    for (let i = 0; i < n; i++) {
      cum += weights[i]!;
      const next = Math.floor((total * cum) / sum);
      out[i] = next - prev;
      prev = next;
    }
    return;
  }
  const remainders = new Float64Array(n);
  let assigned = 0;
  for (let i = 0; i < n; i++) {
    const product = total * weights[i]!;
    const whole = Math.floor(product / sum);
    out[i] = whole;
    remainders[i] = (product - whole * sum) / sum;
    assigned += whole;
  }
  distribute(total - assigned, remainders, out);
}

function cumulative(total: number, weights: ArrayLike<number>, sum: number, out: Float64Array): void {
  let cum = 0;
  let prev = 0;
  const n = weights.length;
  for (let i = 0; i < n; i++) {
    cum += weights[i]!;
    const next = i === n - 1 ? total : Math.round((total * cum) / sum);
    out[i] = Math.max(0, next - prev);
    prev = Math.max(prev, next);
  }
}

/** Gives one more unit to each of the `left` largest remainders (ties: lower index first). */
function distribute(left: number, remainders: Float64Array, out: Float64Array): void {
  if (left <= 0) return;
  const n = remainders.length;
  if (n <= 96) {
    // Small: insertion sort of indices, no allocation-heavy comparator.
    const order = new Int32Array(n);
    let m = 0;
    for (let i = 0; i < n; i++) {
      const r = remainders[i]!;
      if (r <= 0) continue;
      let j = m++;
      while (j > 0 && remainders[order[j - 1]!]! < r) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = i;
    }
    for (let k = 0; k < left && k < m; k++) out[order[k]!]! += 1;
    return;
  }
  const candidates: number[] = [];
  for (let i = 0; i < n; i++) if (remainders[i]! > 0) candidates.push(i);
  candidates.sort((a, b) => remainders[b]! - remainders[a]! || a - b);
  for (let k = 0; k < left && k < candidates.length; k++) out[candidates[k]!]! += 1;
}
