// Search opportunities: the site's CTR curve, low CTR at positions 4–20, losing and lost queries, and pages
// competing for a query, with clicks at stake; brand terms split the queries.
import { describe, expect, it } from 'vitest';
import { defaultBrandTerms, isBrandQuery } from '../../../src/domain/brand-terms.ts';
import { ctrCurve, expectedCtr, findOpportunities, type SearchInputRow } from '../../../src/domain/insights/search-opportunities.ts';

const CTR = [0.3, 0.15, 0.1, 0.07, 0.05, 0.04, 0.035, 0.03, 0.025, 0.02];
const healthy = (query: string, position: number, impressions = 1000, page = `/p/${query}`): SearchInputRow => ({ query, page, position, impressions, clicks: Math.round(impressions * CTR[Math.min(9, position - 1)]!) });
const background = Array.from({ length: 10 }, (_, i) => healthy(`topic ${i}`, i + 1, 5000));
const options = { brandTerms: ['acme shop', 'acmeshop', 'acme-shop'], brand: 'all' as const, perKind: 15 };

describe('CTR curve', () => {
  it('is estimated from the site rows and never rises with the position', () => {
    const curve = ctrCurve([...background, { query: 'odd', page: '/odd', position: 6, impressions: 5000, clicks: 900 }]);
    expect(curve).toHaveLength(20);
    expect(curve[0]!.ctr).toBeCloseTo(0.3, 3);
    for (let i = 1; i < curve.length; i++) expect(curve[i]!.ctr).toBeLessThanOrEqual(curve[i - 1]!.ctr);
    expect(expectedCtr(curve, 3.4)).toBe(curve[2]!.ctr);
  });
});

describe('opportunities', () => {
  it('low_ctr: position 4–20 with a CTR well under the curve, with the clicks at stake', () => {
    const weak: SearchInputRow = { query: 'tent', page: '/tents', position: 5, impressions: 4000, clicks: 40 };
    const rows = [...background, weak];
    const curve = ctrCurve(rows);
    const found = findOpportunities(rows, rows, curve, options).filter((o) => o.kind === 'low_ctr');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ query: 'tent', page: '/tents', expectedCtr: expectedCtr(curve, 5), clicksAtStake: Math.round(4000 * expectedCtr(curve, 5) - 40), brand: false });
  });

  it('a ranking loss (position 3 → 11) is losing_clicks for the query and its page; clicks gone is lost_query', () => {
    const before = [...background, healthy('rain jacket', 3, 2000, '/jackets'), healthy('old query', 4, 500, '/old')];
    const now = [...background, { query: 'rain jacket', page: '/jackets', position: 11, impressions: 1500, clicks: 15 }];
    const found = findOpportunities(now, before, ctrCurve(now), options);
    expect(found.find((o) => o.kind === 'losing_clicks' && o.query === 'rain jacket')).toMatchObject({ previousClicks: 200, clicks: 15, clicksAtStake: 185, previousPosition: 3, position: 11 });
    expect(found.find((o) => o.kind === 'losing_clicks' && o.query === undefined)).toMatchObject({ page: '/jackets', clicksAtStake: 185 });
    expect(found.find((o) => o.kind === 'lost_query')).toMatchObject({ query: 'old query', clicks: 0, previousClicks: 35, clicksAtStake: 35 });
  });

  it('cannibalisation: two pages sharing a query, emerging when they did not compete before', () => {
    const before = [...background, healthy('hiking boots', 4, 2000, '/boots')];
    const now = [...background, { query: 'hiking boots', page: '/boots', position: 7, impressions: 1200, clicks: 30 }, { query: 'hiking boots', page: '/blog/boots', position: 9, impressions: 800, clicks: 10 }];
    const found = findOpportunities(now, before, ctrCurve(now), options).filter((o) => o.kind === 'cannibalisation');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ query: 'hiking boots', pages: ['/boots', '/blog/boots'], emerging: true, impressions: 2000, clicks: 40 });
    expect(found[0]!.clicksAtStake).toBeGreaterThan(0);
  });

  it('brand=nonbrand drops brand queries; brand=brand keeps only them', () => {
    const before = [...background, healthy('acme shop login', 1, 1000), healthy('tent', 2, 1000)];
    const now = [...background];
    const nonbrand = findOpportunities(now, before, ctrCurve(now), { ...options, brand: 'nonbrand' }).filter((o) => o.kind === 'lost_query');
    const brand = findOpportunities(now, before, ctrCurve(now), { ...options, brand: 'brand' }).filter((o) => o.kind === 'lost_query');
    expect(nonbrand.map((o) => o.query)).toEqual(['tent']);
    expect(brand.map((o) => [o.query, o.brand])).toEqual([['acme shop login', true]]);
  });
});

describe('brand terms', () => {
  it('default to the spellings of the registrable name', () => {
    expect(defaultBrandTerms('www.acme-shop.example')).toEqual(['acme shop', 'acmeshop', 'acme-shop']);
    expect(defaultBrandTerms('app.tiny-saas.example')).toEqual(['tiny saas', 'tinysaas', 'tiny-saas']);
    expect(defaultBrandTerms('shop.example.co.uk')).toEqual(['example']);
  });

  it('match queries without case, separators or spaces', () => {
    const terms = defaultBrandTerms('www.acme-shop.example');
    expect(['Acme-Shop login', 'acmeshop', 'acme shop prices'].every((q) => isBrandQuery(q, terms))).toBe(true);
    expect(isBrandQuery('acme rain jacket', terms)).toBe(false);
    expect(isBrandQuery('anything', [])).toBe(false);
  });
});

describe('CTR curve: the exact rules', () => {
  const row = (query: string, position: number, impressions: number, clicks: number, page?: string): SearchInputRow => ({ query, position, impressions, clicks, ...(page ? { page } : {}) });

  it('buckets by rounded position (clamped to 1–20), fills thin buckets from the nearest ones, pools rises', () => {
    const curve = ctrCurve([
      row('a', 1, 600, 180), row('a2', 0.6, 400, 120), // position 1: 300 / 1000
      row('b', 2, 50, 10), // position 2: too thin (50 < 100): the mean of positions 1 and 3
      row('c', 3.4, 500, 50), // position 3: 0.1
      row('z', 37, 200, 2), // beyond 20: counted at 20 (0.01)
    ]);
    expect(curve).toHaveLength(20);
    expect(curve.slice(0, 4)).toEqual([
      { position: 1, ctr: 0.3, impressions: 1000 },
      { position: 2, ctr: 0.2, impressions: 50 },
      { position: 3, ctr: 0.1, impressions: 500 },
      { position: 4, ctr: 0.1, impressions: 0 }, // nearest filled neighbour: position 3
    ]);
    expect(curve[18]).toEqual({ position: 19, ctr: 0.01, impressions: 0 });
    expect(curve[19]).toEqual({ position: 20, ctr: 0.01, impressions: 200 });
  });

  it('a lower position never expects more: a rise is pooled with what precedes it, weighted by impressions', () => {
    const curve = ctrCurve([row('a', 1, 1000, 100), row('b', 2, 3000, 900)]);
    // (0.1·1000 + 0.3·3000 + 0.3·18) / 4018: the empty positions 3–20 borrow 0.3, each with a weight of 1.
    expect(curve[0]!.ctr).toBe(0.2502);
    expect(curve[1]!.ctr).toBe(0.2502);
    expect(curve.every((p, i) => i === 0 || p.ctr <= curve[i - 1]!.ctr)).toBe(true);
  });

  it('with no rows at all it expects nothing', () => {
    expect(ctrCurve([]).every((p) => p.ctr === 0 && p.impressions === 0)).toBe(true);
    expect(expectedCtr([], 3)).toBe(0);
  });

  it('expectedCtr rounds the position and clamps it to the curve', () => {
    const curve = ctrCurve([row('a', 1, 1000, 300), row('b', 2, 1000, 200), row('c', 3, 1000, 100)]);
    expect(expectedCtr(curve, 0.2)).toBe(0.3);
    expect(expectedCtr(curve, 1.5)).toBe(0.2);
    expect(expectedCtr(curve, 2.4)).toBe(0.2);
    expect(expectedCtr(curve, 99)).toBe(curve[19]!.ctr);
  });
});

describe('losing and lost queries: the thresholds', () => {
  const curve = ctrCurve(background);
  const at = (query: string, clicks: number, position: number, impressions = 1000): SearchInputRow => ({ query, page: `/p/${query}`, clicks, position, impressions });
  const kinds = (current: SearchInputRow[], previous: SearchInputRow[]) =>
    findOpportunities([...background, ...current], [...background, ...previous], curve, { ...options, perKind: 50 })
      .filter((o) => o.query !== undefined && !o.query.startsWith('topic'))
      .map((o) => `${o.kind}:${o.query}:${o.clicksAtStake}`);

  it('losing: 15 % of the clicks, or 5 % with a position lost, and never fewer than 3 clicks or from fewer than 5', () => {
    expect(kinds([at('fifteen', 17, 3)], [at('fifteen', 20, 3)])).toEqual(['losing_clicks:fifteen:3']);
    expect(kinds([at('six', 94, 3)], [at('six', 100, 3)])).toEqual([]);
    expect(kinds([at('six-worse', 94, 4)], [at('six-worse', 100, 3)])).toEqual(['losing_clicks:six-worse:6']);
    expect(kinds([at('four-worse', 96, 4)], [at('four-worse', 100, 3)])).toEqual([]);
    expect(kinds([at('two', 8, 3)], [at('two', 10, 3)])).toEqual([]);
    expect(kinds([at('few', 1, 3)], [at('few', 4, 3)])).toEqual([]);
  });

  it('lost: 3 or more clicks before and none now, with the current figures when the query still shows', () => {
    expect(kinds([at('gone', 0, 25, 300)], [at('gone', 3, 3)])).toEqual(['lost_query:gone:3']); // position 25: no low_ctr
    expect(kinds([], [at('vanished', 12, 2)])).toEqual(['lost_query:vanished:12']);
    expect(kinds([], [at('scarce', 2, 2)])).toEqual([]);
    const [lost] = findOpportunities(background, [...background, at('vanished', 12, 2)], curve, options).filter((o) => o.kind === 'lost_query');
    expect(lost).toMatchObject({ query: 'vanished', page: '/p/vanished', clicks: 0, impressions: 0, position: null, previousClicks: 12, previousPosition: 2 });
  });

  it('keeps the largest `perKind` of each kind', () => {
    const previous = [at('l1', 30, 2), at('l2', 50, 2), at('l3', 40, 2)];
    const found = findOpportunities(background, [...background, ...previous], curve, { ...options, perKind: 2 }).filter((o) => o.kind === 'lost_query');
    expect(found.map((o) => o.query)).toEqual(['l2', 'l3']);
  });
});

describe('low CTR: the window and the bar', () => {
  const curve = ctrCurve(background);
  // The background's curve: 0.07 expected at position 4, 0.02 at position 10 (and beyond, up to 20).
  const lowCtrOf = (rows: SearchInputRow[]) =>
    findOpportunities([...background, ...rows], background, curve, { ...options, perKind: 50 })
      .filter((o) => o.kind === 'low_ctr' && !o.query!.startsWith('topic'))
      .map((o) => `${o.query}:${o.clicksAtStake}`);
  const at = (query: string, position: number, clicks: number, impressions = 1000): SearchInputRow => ({ query, page: `/p/${query}`, position, clicks, impressions });

  it('positions 4 to 20 only', () => {
    expect(expectedCtr(curve, 4)).toBe(0.07);
    expect(lowCtrOf([at('p3', 3.4, 10), at('p4', 4, 10), at('p20', 20, 1), at('p21', 20.6, 1)])).toEqual(['p4:60', 'p20:19']);
  });

  it('under 60 % of the expected CTR, with at least one click at stake', () => {
    // position 4 expects 70 clicks of 1,000: 42 is the bar (60 %).
    expect(lowCtrOf([at('just-under', 4, 41), at('at-bar', 4, 42)])).toEqual(['just-under:29']);
    // 10 impressions at position 10 expect 0.2 clicks: nothing worth naming at stake.
    expect(lowCtrOf([at('tiny', 10, 0, 10)])).toEqual([]);
  });
});
