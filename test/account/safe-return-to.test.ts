// Where sign-in sends the browser back to: only paths of this origin, whatever tricks the value plays.
import { describe, expect, it } from 'vitest';
import { safeReturnTo } from '../../src/account/web-deps.ts';

describe('safeReturnTo', () => {
  it.each(['/account', '/oauth/authorize?client_id=a&state=b', '/%09/evil.example'])('keeps the local path %s', (value) => {
    expect(safeReturnTo(value)).toBe(value);
  });

  it.each(['//evil.example', '/\t/evil.example/x', '/\n/evil.example', '/\\evil.example', 'https://evil.example/', '/.//evil.example/phish', '/%2e//evil.example/x', '/%2E%2E//evil.example', '/a/..//evil.example/x', '/a/b/../..//evil.example', 'evil', '', null, undefined])(
    'falls back to /account for %j',
    (value) => expect(safeReturnTo(value)).toBe('/account'),
  );
});

describe('safeReturnTo with dot segments', () => {
  it('returns the normalised local path', () => {
    expect(safeReturnTo('/a/../account?x=1')).toBe('/account?x=1');
  });
});
