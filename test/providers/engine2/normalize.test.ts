import { describe, expect, it } from 'vitest';
import { parseBingDate, toPacificDate } from '../../../src/providers/engine2/dates.ts';
import { rowsOf, toPageRow, toQueryRow, toTrafficRow } from '../../../src/providers/engine2/normalize.ts';

const toQueryRows = (rows: Parameters<typeof toQueryRow>[0][]) => rowsOf(rows, toQueryRow);
const toPageRows = (rows: Parameters<typeof toPageRow>[0][]) => rowsOf(rows, toPageRow);
const toTrafficRows = (rows: Parameters<typeof toTrafficRow>[0][]) => rowsOf(rows, toTrafficRow);
import { MalformedAnswer } from '../../../src/providers/upstream-errors.ts';

describe('parseBingDate', () => {
  it.each([
    // Bing's dates around a DST change: before and after the 2025 spring-forward (2025-03-09).
    ['/Date(1741334400000-0800)/', '2025-03-07'],
    ['/Date(1741935600000-0700)/', '2025-03-14'],
    // The DST days themselves: midnight PST of 2025-03-09 and midnight PDT of 2025-03-10.
    ['/Date(1741507200000-0800)/', '2025-03-09'],
    ['/Date(1741590000000-0700)/', '2025-03-10'],
    // Fall back (2025-11-02): midnight PDT of the 2nd, midnight PST of the 3rd.
    ['/Date(1762066800000-0700)/', '2025-11-02'],
    ['/Date(1762156800000-0800)/', '2025-11-03'],
    // A non-Pacific suffix still names the bucket's local day.
    ['/Date(1741305600000+0000)/', '2025-03-07'],
    ['/Date(1741291200000+0400)/', '2025-03-07'],
  ])('%s → %s', (value, expected) => {
    expect(parseBingDate(value)).toBe(expected);
  });

  it('reads a suffix-less date in America/Los_Angeles, DST aware', () => {
    expect(parseBingDate('/Date(1741334400000)/')).toBe('2025-03-07'); // 08:00Z = 00:00 PST
    expect(parseBingDate('/Date(1741935600000)/')).toBe('2025-03-14'); // 07:00Z = 00:00 PDT
    expect(parseBingDate('/Date(1741932000000)/')).toBe('2025-03-13'); // 06:00Z = 23:00 PDT the day before
    expect(toPacificDate(Date.UTC(2025, 0, 1, 7, 59))).toBe('2024-12-31');
  });

  it('treats .NET MinValue and non-dates as no date', () => {
    expect(parseBingDate('/Date(-62135596800000)/')).toBeUndefined();
    expect(parseBingDate('2025-03-07')).toBeUndefined();
  });
});

const stats = (query: string, date: string, clicks: number, impressionPos: number, clickPos: number) => ({
  __type: 'QueryStats:#Microsoft.Bing.Webmaster.Api',
  AvgClickPosition: clickPos,
  AvgImpressionPosition: impressionPos,
  Clicks: clicks,
  Date: date,
  Impressions: 240,
  Query: query,
});

describe('engine2 rows', () => {
  it('keeps the impression position and turns AvgClickPosition -1 into null', () => {
    const rows = toQueryRows([
      stats('running shoes', '/Date(1741334400000-0800)/', 12, 5, 3),
      stats('trail shoes', '/Date(1741935600000-0700)/', 0, 18, -1),
    ]);
    expect(rows).toEqual([
      { date: '2025-03-07', query: 'running shoes', clicks: 12, impressions: 240, position: 5, clickPosition: 3 },
      { date: '2025-03-14', query: 'trail shoes', clicks: 0, impressions: 240, position: 18, clickPosition: null },
    ]);
  });

  it('reads the page URL from Query for page stats (the provider quirk)', () => {
    const [row] = toPageRows([stats('https://www.example.com/shoes/', '/Date(1741334400000-0800)/', 9, 4, 2)]);
    expect(row).toEqual({ date: '2025-03-07', page: 'https://www.example.com/shoes/', clicks: 9, impressions: 240, position: 4, clickPosition: 2 });
    expect(row && 'query' in row).toBe(false);
  });

  it('drops MinValue-dated rows and rejects a date that is not a WCF date', () => {
    expect(toTrafficRows([{ Date: '/Date(-62135596800000)/', Clicks: 1, Impressions: 2 }])).toEqual([]);
    expect(() => toTrafficRows([{ Date: 'yesterday', Clicks: 1, Impressions: 2 }])).toThrow(MalformedAnswer);
    expect(toTrafficRows([{ Date: '/Date(1741849200000-0700)/', Clicks: 40, Impressions: 1210 }])).toEqual([
      { date: '2025-03-13', clicks: 40, impressions: 1210 },
    ]);
  });
});
