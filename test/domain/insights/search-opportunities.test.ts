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
