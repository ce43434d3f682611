// Which database errors count as an outage, and what may stand in for the database while it lasts.
import { describe, expect, it } from 'vitest';
import { createVerifiedKeyCache } from '../../src/auth/api-key-cache.ts';
import { dependencyUnavailable } from '../../src/errors/app-error.ts';
import type { ApiKeyRecord } from '../../src/store/api-keys-repository.ts';
import { createOutageMemo } from '../../src/store/outage-memo.ts';
import { isStoreOutage } from '../../src/store/outage.ts';

describe('isStoreOutage', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['server shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['disk full', Object.assign(new Error('could not extend file'), { code: '53100' })],
    ['dropped mid-query', new Error('Connection terminated unexpectedly')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['SQLite full', Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 })],
    ['SQLite read-only', Object.assign(new Error('attempt to write a readonly database'), { code: 'ERR_SQLITE_ERROR', errcode: 8 })],
  ])('%s is an outage', (_, error) => expect(isStoreOutage(error)).toBe(true));

  it.each([
    ['unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['SQLite constraint', Object.assign(new Error('UNIQUE constraint failed'), { code: 'ERR_SQLITE_ERROR', errcode: 2067 })],
    ['syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a string', 'ECONNREFUSED'],
  ])('%s is not', (_, error) => expect(isStoreOutage(error)).toBe(false));
});

describe('createOutageMemo', () => {
  const outage = () => Promise.reject(dependencyUnavailable('down'));

  it('answers with the last good value during an outage, within the grace', async () => {
    let now = 0;
    const memo = createOutageMemo({ graceMs: 1_000, now: () => now });
    expect(await memo.read('k', async () => 'fresh')).toBe('fresh');
    now = 999;
    expect(await memo.read('k', outage)).toBe('fresh');
    now = 1_001;
    await expect(memo.read('k', outage)).rejects.toMatchObject({ code: 'dependency_unavailable' });
  });

  it('never hides other errors, and remembers nothing it was not given', async () => {
    const memo = createOutageMemo();
    await memo.read('k', async () => 'fresh');
    await expect(memo.read('k', () => Promise.reject(new Error('bug')))).rejects.toThrow('bug');
    await expect(memo.read('other', outage)).rejects.toMatchObject({ code: 'dependency_unavailable' });
  });
});

describe('verified key cache during an outage', () => {
  const record = { id: 'key_1', digest: 'ab'.repeat(32) } as ApiKeyRecord;

  it('keeps an entry past its TTL for the outage grace only', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 100, maxEntries: 10, outageGraceMs: 1_000 });
    cache.set(record, 0, cache.generation());
    expect(cache.get(record.digest, 50)).toBe(record);
    expect(cache.get(record.digest, 150)).toBeUndefined();
    expect(cache.stale(record.digest, 150)).toBe(record);
    expect(cache.stale(record.digest, 1_100)).toBeUndefined();
  });

  it('forgets a revoked key at once, grace or not', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 100, maxEntries: 10, outageGraceMs: 1_000 });
    cache.set(record, 0, cache.generation());
    cache.invalidate(record.id);
    expect(cache.stale(record.digest, 150)).toBeUndefined();
  });
});
