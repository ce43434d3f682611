import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeMatches, didYouMean, editDistance } from '../../src/domain/close-matches.ts';

describe('editDistance (optimal string alignment)', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['same', 'same', 0],
    ['kitten', 'sitting', 3],
    ['ab', 'ba', 1],
    ['abcd', 'acbd', 1],
    ['abcd', 'badc', 2],
    ['ca', 'abc', 3], // OSA: no edits inside a transposed pair
    ['sessions', 'sesions', 1],
    ['sessoins', 'sessions', 1],
    ['country', 'city', 4],
  ])('%j ↔ %j = %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  it('is symmetric, zero only for equal strings, and bounded by the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        const d = editDistance(a, b);
        expect(d).toBe(editDistance(b, a));
        expect(d === 0).toBe(a === b);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
  });
});

describe('closeMatches / didYouMean', () => {
  const metrics = ['sessions', 'newUsers', 'totalUsers', 'engagementRate', 'keyEvents', 'screenPageViews'];

  it('ranks by distance, then containment, alphabetical on ties, at most `max`', () => {
    expect(closeMatches('sesions', metrics)).toEqual(['sessions']);
    expect(closeMatches('users', metrics)).toEqual(['newUsers', 'totalUsers']);
    expect(closeMatches('users', metrics, 1)).toEqual(['newUsers']);
    expect(closeMatches('xyz', metrics)).toEqual([]);
    expect(closeMatches('ab', ['abc', 'abd', 'zz'])).toEqual(['abc', 'abd', 'zz']); // limit 2 for short inputs
  });

  it('a name equal but for case is the only answer', () => {
    expect(closeMatches('SESSIONS', [...metrics, 'session'])).toEqual(['sessions']);
  });

  it('says "did you mean" with one, two or three names, or nothing', () => {
    expect(didYouMean('sesions', metrics)).toBe(' Did you mean "sessions"?');
    expect(didYouMean('users', metrics)).toBe(' Did you mean "newUsers" or "totalUsers"?');
    expect(didYouMean('ab', ['abc', 'abd', 'abe'])).toBe(' Did you mean "abc", "abd" or "abe"?');
    expect(didYouMean('xyz', metrics)).toBe('');
  });
});
