import { describe, expect, it } from 'vitest';
import { defaultBrandTerms, isBrandQuery } from '../../src/domain/brand-terms.ts';

describe('defaultBrandTerms', () => {
  it.each([
    ['www.acme-shop.example', ['acme shop', 'acmeshop', 'acme-shop']],
    ['acme-shop.example', ['acme shop', 'acmeshop', 'acme-shop']],
    ['https://Shop.Northwind--Journal.example/path', ['northwind journal', 'northwindjournal', 'northwind--journal']],
    ['sc-domain:tiny_saas.example', ['tiny saas', 'tinysaas', 'tiny_saas']],
    ['  northwind.example:8443  ', ['northwind']],
    ['blog.brighton.co.uk', ['brighton']],
    ['brighton.co.uk', ['brighton']],
    ['co.uk', ['co']], // two labels only: "co.uk" is not taken as the suffix of itself
    ['store.example.com.au', ['example']],
    ['localhost', ['localhost']],
    ['example.', ['example']],
    ['-.example', ['-']],
  ])('%s → %j', (domain, terms) => {
    expect(defaultBrandTerms(domain)).toEqual(terms);
  });

  it('has no terms for an empty or dot-only domain', () => {
    expect(defaultBrandTerms('')).toEqual([]);
    expect(defaultBrandTerms(' . ')).toEqual([]);
    expect(defaultBrandTerms('https://')).toEqual([]);
  });
});

describe('isBrandQuery', () => {
  const terms = ['acme shop'];
  it.each([
    ['Acme-Shop login', true],
    ['acmeshop', true],
    ['acme shop prices', true],
    ['ACME_SHOP.com', true],
    ['acme   shop', true],
    ['best shop acme', false],
    ['acme', false],
  ])('%s → %s', (query, expected) => {
    expect(isBrandQuery(query, terms)).toBe(expected);
  });

  it('ignores terms that are empty once normalised, and matches any term', () => {
    expect(isBrandQuery('anything at all', ['', ' - ', '..'])).toBe(false);
    expect(isBrandQuery('northwind weekly', ['acme', 'north wind'])).toBe(true);
    expect(isBrandQuery('northwind weekly', [])).toBe(false);
  });
});
