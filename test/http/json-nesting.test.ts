// The JSON nesting limit: the text scan (before anything is built) and the value walk (for values that arrive parsed)
// agree with each other and with the depth JSON itself has; brackets inside strings do not count.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextTooDeep, jsonValueTooDeep, MAX_JSON_DEPTH, parseJsonText } from '../../src/http/json-nesting.ts';
import { expectAppError } from '../domain/expect-app-error.ts';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** The depth by definition (recursive: only for the small values the property draws). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('JSON nesting limit', () => {
  it('allows exactly the limit and refuses one level more, as text and as a value', () => {
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonValueTooDeep(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(jsonValueTooDeep(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: `\\"${'['.repeat(500)}"{{{`, b: [[1]] });
    expect(jsonTextTooDeep(text, 3)).toBe(false);
    expect(jsonTextTooDeep(text, 2)).toBe(true);
  });

  it('walks a value far deeper than the stack allows without overflowing', () => {
    expect(jsonValueTooDeep(JSON.parse(nested(200_000)))).toBe(true);
  });

  it('the text scan and the value walk give the depth JSON has', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, max) => {
        const tooDeep = depthOf(value) > max;
        expect(jsonTextTooDeep(JSON.stringify(value), max)).toBe(tooDeep);
        expect(jsonValueTooDeep(value, max)).toBe(tooDeep);
      }),
    );
  });

  it('parseJsonText: 400 invalid_json for bad JSON and for nesting past the limit', () => {
    expect(parseJsonText('{"a":[1]}')).toEqual({ a: [1] });
    expectAppError(() => parseJsonText('{"a":'), { code: 'invalid_json', includes: ['not valid JSON'] });
    expectAppError(() => parseJsonText(nested(10_000)), { code: 'invalid_json', includes: [`more than ${MAX_JSON_DEPTH} levels`] });
  });
});
