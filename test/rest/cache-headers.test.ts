// Cache-Status (RFC 9211) and Age: one builder for fresh answers (from meta) and for the REST answer cache's hits.
import { describe, expect, it } from 'vitest';
import { cacheHeaders, cacheHeadersOf } from '../../src/rest/cache-headers.ts';

const NOW = new Date('2026-11-26T10:00:00.000Z');

describe('cache headers', () => {
  it.each([
    ['hit', 'siteline; hit'],
    ['stale', 'siteline; hit; detail=stale'],
    ['miss', 'siteline; fwd=miss; stored'],
    ['refresh', 'siteline; fwd=request; stored'],
  ])('meta.cache %s is Cache-Status %j with the whole seconds since fetchedAt as Age', (cache, status) => {
    expect(cacheHeadersOf({ meta: { cache, fetchedAt: '2026-11-26T09:58:59.500Z' } }, NOW)).toEqual({ 'cache-status': status, age: '60' });
  });

  it('an answer without meta.cache (projects, funnels) gets neither field', () => {
    expect(cacheHeadersOf({ data: [] }, NOW)).toEqual({});
    expect(cacheHeaders(undefined, NOW.getTime(), NOW)).toEqual({});
  });

  it('a fetchedAt in the future or unknown is Age 0', () => {
    expect(cacheHeaders('hit', NOW.getTime() + 5_000, NOW)).toEqual({ 'cache-status': 'siteline; hit', age: '0' });
    expect(cacheHeadersOf({ meta: { cache: 'miss' } }, NOW)).toEqual({ 'cache-status': 'siteline; fwd=miss; stored', age: '0' });
  });
});
