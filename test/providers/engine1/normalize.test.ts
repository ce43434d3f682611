import { describe, expect, it } from 'vitest';
import { normalizeSearchRows, normalizeSitemaps, readFreshness } from '../../../src/providers/engine1/normalize.ts';
import { MalformedAnswer } from '../../../src/providers/upstream-errors.ts';

describe('normalizeSearchRows', () => {
  it('keys values by the requested dimensions, whatever their casing', async () => {
    const rows = await normalizeSearchRows(
      {
        rows: [
          { keys: ['2025-03-01', 'running shoes'], clicks: 31, impressions: 812, ctr: 0.0382, position: 4.6 },
          { keys: ['2025-03-02', 'trail running shoes'], impressions: 57, position: 17.2 },
        ],
      },
      ['DATE', 'query'],
    );
    expect(rows).toEqual([
      { keys: { date: '2025-03-01', query: 'running shoes' }, clicks: 31, impressions: 812, ctr: 0.0382, position: 4.6 },
      { keys: { date: '2025-03-02', query: 'trail running shoes' }, clicks: 0, impressions: 57, ctr: 0, position: 17.2 },
    ]);
  });

  it('handles the totals row without keys and an answer without rows', async () => {
    expect(await normalizeSearchRows({ rows: [{ clicks: 3, impressions: 9, ctr: 0.33, position: 2 }] }, [])).toEqual([
      { keys: {}, clicks: 3, impressions: 9, ctr: 0.33, position: 2 },
    ]);
    expect(await normalizeSearchRows({ responseAggregationType: 'byProperty' }, ['query'])).toEqual([]);
  });

  it('rejects rows whose keys do not match the dimensions, or that are not rows', async () => {
    await expect(normalizeSearchRows({ rows: [{ keys: ['a'] }] }, ['date', 'query'])).rejects.toThrow(MalformedAnswer);
    await expect(normalizeSearchRows({ rows: [{ keys: ['a'], clicks: 'many' }] }, ['query'])).rejects.toThrow(MalformedAnswer);
    await expect(normalizeSearchRows({ rows: ['a row'] }, ['query'])).rejects.toThrow(MalformedAnswer);
  });
});

describe('readFreshness', () => {
  it('derives dataThrough from firstIncompleteDate (camelCase or snake_case), across a month end', () => {
    expect(readFreshness({ metadata: { firstIncompleteDate: '2025-03-06' } })).toEqual({
      firstIncompleteDate: '2025-03-06',
      dataThrough: '2025-03-05',
    });
    expect(readFreshness({ metadata: { first_incomplete_date: '2025-03-01' } }).dataThrough).toBe('2025-02-28');
    expect(readFreshness({})).toEqual({});
  });
});

describe('normalizeSitemaps', () => {
  it('parses int64 strings and defaults omitted booleans', () => {
    expect(
      normalizeSitemaps({ sitemap: [{ path: 'https://x.example/sitemap.xml', errors: '2', contents: [{ type: 'web', submitted: '120' }] }] }),
    ).toEqual([
      {
        path: 'https://x.example/sitemap.xml',
        type: undefined,
        lastSubmitted: undefined,
        lastDownloaded: undefined,
        isPending: false,
        isSitemapsIndex: false,
        warnings: 0,
        errors: 2,
        contents: [{ type: 'web', submitted: 120, indexed: 0 }],
      },
    ]);
  });
});
