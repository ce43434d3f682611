// The apportionment primitive every breakdown rests on: exact sums, parts within one of their quota, and
// integer parents never exceeded (users ≤ sessions), on both the sorting and the long-tail path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apportion } from '../../../src/sandbox/data/apportion.ts';

const weights = fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: 1, maxLength: 6000 });

describe('apportion', () => {
  it('parts are whole, sum exactly to the total and stay within one of their quota', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), weights, (total, w) => {
      const out = new Float64Array(w.length);
      apportion(total, w, out);
      const sum = w.reduce((a, b) => a + b, 0);
      const got = out.reduce((a, b) => a + b, 0);
      expect(got).toBe(sum > 0 ? total : 0);
      out.forEach((v, i) => {
        expect(Number.isInteger(v)).toBe(true);
        if (sum > 0) expect(Math.abs(v - (total * w[i]!) / sum)).toBeLessThan(1 + 1e-6);
      });
    }), { numRuns: 60 });
  });

  it('never gives a cell more than its integer parent when the total is smaller', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 1, maxLength: 6000 }), fc.double({ min: 0, max: 1, noNaN: true }), (parent, ratio) => {
      const total = Math.floor(parent.reduce((a, b) => a + b, 0) * ratio);
      const out = new Float64Array(parent.length);
      apportion(total, parent, out, true);
      expect(out.reduce((a, b) => a + b, 0)).toBe(parent.some((p) => p > 0) ? total : 0);
      out.forEach((v, i) => expect(v).toBeLessThanOrEqual(parent[i]!));
    }), { numRuns: 60 });
  });
});
