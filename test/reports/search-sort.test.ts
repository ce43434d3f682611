// Ordering of combined search rows: rows without a value for the order metric come last in both directions.
import { describe, expect, it } from 'vitest';
import { sortRows } from '../../src/reports/search-breakdown.ts';

const rows = [
  { key: 'a', clicks: 5, impressions: 50, position: 3 },
  { key: 'b', clicks: 9, impressions: 90, position: null },
  { key: 'c', clicks: 1, impressions: 10, position: 1.5 },
];

describe('sortRows', () => {
  it('puts rows without a position last, ascending and descending', () => {
    expect(sortRows(rows, { metric: 'position', direction: 'asc' }).map((r) => r.key)).toEqual(['c', 'a', 'b']);
    expect(sortRows(rows, { metric: 'position', direction: 'desc' }).map((r) => r.key)).toEqual(['a', 'c', 'b']);
  });

  it('breaks ties on clicks', () => {
    expect(sortRows(rows, { metric: 'clicks', direction: 'desc' }).map((r) => r.key)).toEqual(['b', 'a', 'c']);
  });
});
