// CSV answers are opened in spreadsheets: a text cell that starts like a formula is prefixed with a quote, a
// number (also a negative one) is left alone, and quotes/commas/newlines are quoted the RFC 4180 way.
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/rest/csv.ts';

const cell = (value: unknown) => toCsv([{ v: value }]).split('\r\n')[1];

describe('toCsv formula guard', () => {
  it.each(['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with a quote', (text) => {
    expect(cell(text)?.replace(/^"|"$/g, '').startsWith(`'${text[0]}`)).toBe(true);
  });

  it('a search query that is a formula comes out inert', () => {
    expect(cell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it.each([['-12', '-12'], [-0.5, '-0.5'], ['+3', '+3'], ['plain', 'plain'], ['a=b', 'a=b']])('leaves %j as %j', (value, expected) => {
    expect(cell(value)).toBe(expected);
  });

  it('quotes commas, quotes and newlines', () => {
    expect(cell('a,"b"\nc')).toBe('"a,""b""\nc"');
  });
});
