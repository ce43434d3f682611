import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRIES, findCountry } from '../../src/domain/countries.ts';
import {
  isTrackingParam,
  normaliseCountry,
  normaliseDevice,
  normalisePage,
  normaliseQuery,
  normaliseSearchKey,
} from '../../src/domain/search-normalise.ts';

describe('normaliseQuery', () => {
  it.each([
    ['Running Shoes', 'running shoes'],
    ['  running \t  shoes\n', 'running shoes'],
    ['caf\u0065\u0301', 'caf\u00e9'],
    ['CAFÉ', 'café'],
    ['東京　ホテル', '東京 ホテル'],
    ['', ''],
  ])('%j → %j', (raw, expected) => {
    expect(normaliseQuery(raw)).toBe(expected);
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => normaliseQuery(normaliseQuery(s)) === normaliseQuery(s)), { numRuns: 500 });
  });

  it('gives plain ASCII queries (its fast path) exactly what the full rule gives', () => {
    const full = (raw: string) => raw.normalize('NFC').toLowerCase().normalize('NFC').replace(/\s+/gu, ' ').trim();
    const ascii = fc.string({ unit: fc.constantFrom(...'aZ09 -_.\t\n!~é'.split('')), maxLength: 30 });
    fc.assert(fc.property(fc.oneof(ascii, fc.string({ unit: 'grapheme' })), (s) => normaliseQuery(s) === full(s)), { numRuns: 1000 });
  });
});

describe('normalisePage', () => {
  it.each([
    ['HTTPS://Example.COM/Blog/Post', 'https://example.com/Blog/Post'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['http://example.com:8080/a', 'http://example.com:8080/a'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/a/', 'https://example.com/a/'],
    ['https://example.com/a?utm_source=x&utm_medium=y', 'https://example.com/a'],
    ['https://example.com/a?UTM_Campaign=x&id=3', 'https://example.com/a?id=3'],
    ['https://example.com/a?b=2&gclid=abc&a=1&msclkid=z&fbclid=q', 'https://example.com/a?a=1&b=2'],
    ['https://example.com/a?dclid=1&yclid=2&mc_cid=3&mc_eid=4&_ga=5&srsltid=6&q=shoes', 'https://example.com/a?q=shoes'],
    ['https://example.com/a?tag=b&tag=a&x=%20y', 'https://example.com/a?tag=b&tag=a&x=%20y'],
    ['https://example.com/search?q=a+b', 'https://example.com/search?q=a+b'],
    ['https://example.com/a?', 'https://example.com/a'],
    ['https://bücher.example/a', 'https://xn--bcher-kva.example/a'],
    ['/blog/post?utm_source=x&p=2#top', '/blog/post?p=2'],
    ['  /blog/  ', '/blog/'],
    ['not a url', 'not a url'],
    ['https://', 'https://'],
    ['', ''],
    ['https://example.com/a?c=3&a=1&b=2', 'https://example.com/a?a=1&b=2&c=3'],
    ['/a?b=2&c=3&a=1', '/a?a=1&b=2&c=3'],
    ['/a?q=what?&b=1', '/a?b=1&q=what?'],
    ['/a?utm%5Fsource=x&b=1', '/a?b=1'],
    ['//cdn.example/a?utm_source=x', '//cdn.example/a?utm_source=x'],
    ['file:///tmp/a?utm_source=x', 'file:///tmp/a?utm_source=x'],
    ['  https://example.com/a  ', 'https://example.com/a'],
  ])('%j → %j', (raw, expected) => {
    expect(normalisePage(raw)).toBe(expected);
  });

  it('orders of parameters and tracking tags do not matter', () => {
    expect(normalisePage('https://Example.com/p?b=2&a=1&utm_source=news')).toBe(normalisePage('https://example.com/p?gclid=1&a=1&b=2#x'));
  });

  it('drops whitespace left before a fragment (a counterexample fast-check found)', () => {
    expect(normalisePage('/ #')).toBe('/');
    expect(normalisePage('/a/b \t#top')).toBe('/a/b');
  });

  it('is idempotent and never throws', () => {
    const url = fc.webUrl({ withQueryParameters: true, withFragments: true });
    fc.assert(fc.property(fc.oneof(url, fc.string()), (s) => normalisePage(normalisePage(s)) === normalisePage(s)), { numRuns: 500 });
  });

  it.each([
    ['utm_anything', true],
    ['gclid', true],
    ['GCLID', true],
    ['_ga', true],
    ['page', false],
    ['utm', false],
  ])('isTrackingParam(%s) = %s', (name, expected) => {
    expect(isTrackingParam(name)).toBe(expected);
  });
});

describe('normaliseCountry', () => {
  it.each([
    ['Germany', 'deu'],
    ['DE', 'deu'],
    ['de', 'deu'],
    ['DEU', 'deu'],
    ['deu', 'deu'],
    ['United States', 'usa'],
    ['United Kingdom', 'gbr'],
    ['Türkiye', 'tur'],
    ['Turkey', 'tur'],
    ['Czechia', 'cze'],
    ['South Korea', 'kor'],
    ['Russia', 'rus'],
    ["Côte d’Ivoire", 'civ'],
    ['Congo - Kinshasa', 'cod'],
    ['Congo - Brazzaville', 'cog'],
    ['Myanmar (Burma)', 'mmr'],
    ['Bosnia & Herzegovina', 'bih'],
    ['St. Lucia', 'lca'],
    ['St. Vincent & Grenadines', 'vct'],
    ['São Tomé & Príncipe', 'stp'],
    ['U.S. Virgin Islands', 'vir'],
    ['Hong Kong', 'hkg'],
    ['Kosovo', 'xkk'],
    ['XK', 'xkk'],
    ['Vietnam', 'vnm'],
    ['Åland Islands', 'ala'],
    ['Curaçao', 'cuw'],
    ['  germany ', 'deu'],
    ['(not set)', '(not set)'],
    ['zzz', 'zzz'],
    ['Atlantis', 'atlantis'],
  ])('%j → %j', (raw, expected) => {
    expect(normaliseCountry(raw)).toBe(expected);
  });

  it('table covers ISO 3166-1 (249 codes) plus Kosovo, with unique codes and names', () => {
    expect(COUNTRIES).toHaveLength(250);
    expect(new Set(COUNTRIES.map((c) => c.alpha2)).size).toBe(250);
    expect(new Set(COUNTRIES.map((c) => c.alpha3)).size).toBe(250);
    for (const c of COUNTRIES) {
      expect(c.alpha2, c.name).toMatch(/^[A-Z]{2}$/);
      expect(c.alpha3, c.name).toMatch(/^[A-Z]{3}$/);
      for (const name of [c.name, ...c.otherNames]) expect(findCountry(name)?.alpha3, name).toBe(c.alpha3);
      expect(findCountry(c.alpha2)?.alpha3).toBe(c.alpha3);
      expect(findCountry(c.alpha3.toLowerCase())?.alpha3).toBe(c.alpha3);
    }
  });

  it('agrees with Intl.DisplayNames English names where Intl has them', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    const misses: string[] = [];
    for (const c of COUNTRIES) {
      const name = names.of(c.alpha2);
      if (name !== undefined && name !== c.alpha2 && findCountry(name)?.alpha3 !== c.alpha3) misses.push(`${c.alpha2}:${name}`);
    }
    expect(misses).toEqual([]);
  });
});

describe('normaliseDevice', () => {
  it.each([
    ['DESKTOP', 'desktop'],
    ['Mobile', 'mobile'],
    ['tablet', 'tablet'],
    ['phone', 'mobile'],
    [' smart tv ', 'smart tv'],
    ['constructor', 'constructor'],
  ])('%j → %j', (raw, expected) => {
    expect(normaliseDevice(raw)).toBe(expected);
  });
});

describe('normaliseSearchKey', () => {
  it.each([
    ['query', ' Shoes ', 'shoes'],
    ['page', 'HTTPS://A.COM/x?utm_source=1', 'https://a.com/x'],
    ['country', 'DE', 'deu'],
    ['device', 'MOBILE', 'mobile'],
    ['date', '2026-01-01', '2026-01-01'],
  ] as const)('%s %j → %j', (dimension, raw, expected) => {
    expect(normaliseSearchKey(dimension, raw)).toBe(expected);
  });
});
