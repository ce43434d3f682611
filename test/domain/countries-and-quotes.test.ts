// Country lookup (codes and English names, folded) and the quoting of caller input in error messages.
import { describe, expect, it } from 'vitest';
import { findCountry, normaliseCountry } from '../../src/domain/countries.ts';
import { quoteInput } from '../../src/domain/quote.ts';

describe('findCountry / normaliseCountry', () => {
  it.each([
    [' de ', 'DEU'],
    ['DEU', 'DEU'],
    ['deu', 'DEU'],
    ['Germany', 'DEU'],
    ['  GERMANY ', 'DEU'],
    ['St. Lucia', 'LCA'],
    ['St Lucia', 'LCA'],
    ['The Bahamas', 'BHS'],
    ['Côte d’Ivoire', 'CIV'],
    ['Bosnia & Herzegovina', 'BIH'],
  ])('%j → %s', (raw, alpha3) => {
    expect(findCountry(raw)?.alpha3).toBe(alpha3);
  });

  it('a three-letter code is read as alpha-3, not a name or an alpha-2 code', () => {
    expect(findCountry('fra')?.alpha3).toBe('FRA');
    expect(findCountry('fr')?.alpha3).toBe('FRA');
    expect(findCountry('zzz')).toBeUndefined();
  });

  it('values naming no country group with themselves, trimmed and in lower case', () => {
    expect(normaliseCountry(' (Not Set) ')).toBe('(not set)');
    expect(normaliseCountry(' ZZZ')).toBe('zzz');
    expect(normaliseCountry(' us ')).toBe('usa');
  });
});

describe('quoteInput', () => {
  it('quotes as JSON, control characters escaped', () => {
    expect(quoteInput('a "b"\n')).toBe('"a \\"b\\"\\n"');
  });

  it('keeps 200 characters whole and cuts longer input with an ellipsis', () => {
    expect(quoteInput('x'.repeat(200))).toBe(`"${'x'.repeat(200)}"`);
    expect(quoteInput('x'.repeat(201))).toBe(`"${'x'.repeat(200)}"…`);
  });
});
