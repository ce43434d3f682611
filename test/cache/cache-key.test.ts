import { describe, expect, it } from 'vitest';
import { canonicalJson, toCacheKey } from '../../src/cache/cache-key.ts';

const base = {
  operation: 'analytics.batchRunReports',
  source: 'analytics:123456',
  credential: 'cred-7@v2',
  request: { dateRanges: [{ startDate: '2026-01-01', endDate: '2026-01-31' }], metrics: [{ name: 'sessions' }] },
};

describe('toCacheKey', () => {
  it('is stable whatever the key order of the request', () => {
    const reordered = { ...base, request: { metrics: [{ name: 'sessions' }], dateRanges: [{ endDate: '2026-01-31', startDate: '2026-01-01' }] } };
    expect(toCacheKey(reordered)).toBe(toCacheKey(base));
  });

  it('differs by credential, data source, request content and array order', () => {
    const key = toCacheKey(base);
    expect(toCacheKey({ ...base, credential: 'cred-8@v1' })).not.toBe(key);
    expect(toCacheKey({ ...base, source: 'analytics:999' })).not.toBe(key);
    expect(toCacheKey({ ...base, request: { ...base.request, metrics: [{ name: 'activeUsers' }] } })).not.toBe(key);
    expect(toCacheKey({ ...base, request: { ...base.request, metrics: [{ name: 'a' }, { name: 'b' }] } })).not.toBe(
      toCacheKey({ ...base, request: { ...base.request, metrics: [{ name: 'b' }, { name: 'a' }] } }),
    );
  });

  it('starts with a readable prefix followed by a base64url sha256', () => {
    expect(toCacheKey(base)).toMatch(/^v1:analytics\.batchRunReports:analytics:123456:[A-Za-z0-9_-]{43}$/);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined like JSON does', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('sorts the keys of null-prototype objects too, and keeps nulls as they are', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: null });
    expect(canonicalJson({ z: bare, y: null })).toBe('{"y":null,"z":{"a":null,"b":1}}');
  });

  it('leaves class instances in their own order: only plain JSON objects are canonicalised', () => {
    class Request {
      b = 1;
      a = 2;
    }
    expect(canonicalJson({ r: new Request() })).toBe('{"r":{"b":1,"a":2}}');
  });

  it('refuses values that have no JSON form', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});
