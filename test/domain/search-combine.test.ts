import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  combineSearchRows,
  mergeSearchMetrics,
  type SearchRowInput,
} from '../../src/domain/search-combine.ts';

describe('mergeSearchMetrics', () => {
  it.each([
    [[], { clicks: 0, impressions: 0, ctr: 0, position: 0 }],
    [[{ clicks: 10, impressions: 100, position: 3 }], { clicks: 10, impressions: 100, ctr: 0.1, position: 3 }],
    [
      [
        { clicks: 10, impressions: 100, position: 2 },
        { clicks: 1, impressions: 300, position: 6 },
      ],
      { clicks: 11, impressions: 400, ctr: 0.0275, position: 5 },
    ],
    [
      [
        { clicks: 0, impressions: 0, position: 4 },
        { clicks: 0, impressions: 0, position: 8 },
      ],
      { clicks: 0, impressions: 0, ctr: 0, position: 6 },
    ],
  ])('%j', (parts, expected) => {
    expect(mergeSearchMetrics(parts)).toEqual(expected);
  });

  it('never averages CTRs', () => {
    // CTRs 0.5 and 0.001: their mean would be 0.2505; the real CTR is 51/1100.
    const merged = mergeSearchMetrics([
      { clicks: 50, impressions: 100, position: 1 },
      { clicks: 1, impressions: 1000, position: 9 },
    ]);
    expect(merged.ctr).toBeCloseTo(51 / 1100, 12);
  });
});

describe('combineSearchRows', () => {
  it('matches rows on the normalised key and keeps each provider’s figures', () => {
    const rows = combineSearchRows(
      {
        engine1: [
          { key: 'running shoes', clicks: 30, impressions: 1000, position: 4 },
          { key: 'trail shoes', clicks: 5, impressions: 100, position: 9 },
        ],
        engine2: [
          { key: 'Running  Shoes ', clicks: 10, impressions: 1000, position: 2 },
          { key: 'boots', clicks: 1, impressions: 10, position: 1 },
        ],
      },
      'query',
    );
    expect(rows).toEqual([
      {
        key: 'running shoes',
        clicks: 40,
        impressions: 2000,
        ctr: 0.02,
        position: 3,
        byProvider: {
          engine1: { clicks: 30, impressions: 1000, ctr: 0.03, position: 4 },
          engine2: { clicks: 10, impressions: 1000, ctr: 0.01, position: 2 },
        },
      },
      { key: 'trail shoes', clicks: 5, impressions: 100, ctr: 0.05, position: 9, byProvider: { engine1: { clicks: 5, impressions: 100, ctr: 0.05, position: 9 } } },
      { key: 'boots', clicks: 1, impressions: 10, ctr: 0.1, position: 1, byProvider: { engine2: { clicks: 1, impressions: 10, ctr: 0.1, position: 1 } } },
    ]);
  });

  it('merges one provider’s rows that normalise alike (pages with tracking tags)', () => {
    const rows = combineSearchRows(
      {
        engine1: [
          { key: 'https://example.com/a?utm_source=x', clicks: 1, impressions: 10, position: 2 },
          { key: 'https://EXAMPLE.com/a', clicks: 3, impressions: 30, position: 6 },
        ],
      },
      'page',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: 'https://example.com/a', clicks: 4, impressions: 40, position: 5 });
  });

  it('matches countries across spellings', () => {
    const rows = combineSearchRows(
      { engine1: [{ key: 'deu', clicks: 1, impressions: 2, position: 1 }], engine2: [{ key: 'Germany', clicks: 1, impressions: 2, position: 3 }] },
      'country',
    );
    expect(rows.map((r) => [r.key, r.clicks, r.position])).toEqual([['deu', 2, 2]]);
  });

  // Property tests: realistic provider rows (clicks <= impressions, positions >= 1).
  const key = fc.constantFrom('shoes', 'Shoes', ' shoes', 'boots', 'BOOTS ', 'hats', 'socks');
  const row: fc.Arbitrary<SearchRowInput> = fc
    .tuple(key, fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 1, max: 100, noNaN: true }))
    .map(([k, impressions, rate, position]) => ({ key: k, impressions, clicks: Math.floor(impressions * rate), position }));
  const input = fc.record({ engine1: fc.array(row, { maxLength: 8 }), engine2: fc.array(row, { maxLength: 8 }) });
  const sum = (rows: readonly { clicks: number; impressions: number }[], f: 'clicks' | 'impressions') => rows.reduce((t, r) => t + r[f], 0);

  it('CTR is in [0, 1] and position lies between the providers’ positions', () => {
    fc.assert(
      fc.property(input, (byProvider) => {
        for (const r of combineSearchRows(byProvider, 'query')) {
          if (r.ctr < 0 || r.ctr > 1) return false;
          const parts = Object.values(r.byProvider);
          const positions = parts.map((p) => p.position);
          if (r.position < Math.min(...positions) || r.position > Math.max(...positions)) return false;
          if (parts.some((p) => p.ctr < 0 || p.ctr > 1)) return false;
          if (r.impressions > 0 && r.ctr !== r.clicks / r.impressions) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('preserves sums of clicks and impressions, overall and per provider', () => {
    fc.assert(
      fc.property(input, (byProvider) => {
        const rows = combineSearchRows(byProvider, 'query');
        const all = [...byProvider.engine1, ...byProvider.engine2];
        const e1 = rows.map((r) => r.byProvider.engine1).filter((x) => x !== undefined);
        return (
          sum(rows, 'clicks') === sum(all, 'clicks') &&
          sum(rows, 'impressions') === sum(all, 'impressions') &&
          sum(e1, 'clicks') === sum(byProvider.engine1, 'clicks') &&
          new Set(rows.map((r) => r.key)).size === rows.length
        );
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order of rows or of providers', () => {
    fc.assert(
      fc.property(input, fc.integer(), (byProvider, seed) => {
        const shuffle = <T>(xs: readonly T[]): T[] => xs.map((x, i) => ({ x, k: (i * 7919 + seed) % 104729 })).sort((a, b) => a.k - b.k).map((p) => p.x);
        const a = combineSearchRows(byProvider, 'query');
        const b = combineSearchRows({ engine2: shuffle(byProvider.engine2), engine1: shuffle(byProvider.engine1) }, 'query');
        expect(b.map((r) => [r.key, r.clicks, r.impressions])).toEqual(a.map((r) => [r.key, r.clicks, r.impressions]));
        for (const [i, r] of a.entries()) {
          expect(b[i]?.position).toBeCloseTo(r.position, 9);
          expect(b[i]?.ctr).toBeCloseTo(r.ctr, 12);
        }
      }),
      { numRuns: 200 },
    );
  });
});
