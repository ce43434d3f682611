import { describe, expect, it } from 'vitest';
import { entryBytes, type CacheEntry } from '../../src/cache/cache-store.ts';
import { createMemoryCacheStore } from '../../src/cache/memory-cache-store.ts';
import { manualClock } from './redis-helpers.ts';

const entryAt = (now: number, value: unknown, staleMs = 60_000): CacheEntry => ({
  value,
  source: 'analytics:1',
  storedAt: now,
  freshUntil: now + 1_000,
  revalidateUntil: now + 2_000,
  staleUntil: now + staleMs,
});

describe('memory cache store', () => {
  it('evicts the least recently used entry once the byte bound is exceeded', async () => {
    const clock = manualClock();
    const one = entryAt(clock.now(), 'x'.repeat(1_000));
    const size = entryBytes('k1', one);
    const store = createMemoryCacheStore({ maxBytes: size * 3, now: clock.now });
    await store.set('k1', one);
    await store.set('k2', entryAt(clock.now(), 'y'.repeat(1_000)));
    await store.set('k3', entryAt(clock.now(), 'z'.repeat(1_000)));
    await store.get('k1'); // k1 is now the most recently used; k2 the least
    await store.set('k4', entryAt(clock.now(), 'w'.repeat(1_000)));

    expect(await store.get('k2')).toBeUndefined();
    expect((await store.get('k1'))?.value).toBe('x'.repeat(1_000));
    expect(await store.get('k3')).toBeDefined();
    expect(await store.get('k4')).toBeDefined();
  });

  it('does not keep an entry larger than the whole bound', async () => {
    const clock = manualClock();
    const store = createMemoryCacheStore({ maxBytes: 500, now: clock.now });
    await store.set('big', entryAt(clock.now(), 'x'.repeat(1_000)));
    expect(await store.get('big')).toBeUndefined();
  });

  it('keeps an entry until its stale window ends, then drops it', async () => {
    const clock = manualClock();
    const store = createMemoryCacheStore({ now: clock.now });
    await store.set('k', entryAt(clock.now(), { a: 1 }, 10_000));
    clock.advance(9_999);
    expect((await store.get('k'))?.value).toEqual({ a: 1 });
    clock.advance(1);
    expect(await store.get('k')).toBeUndefined();
  });

  it('ignores entries whose stale window already ended', async () => {
    const clock = manualClock();
    const store = createMemoryCacheStore({ now: clock.now });
    await store.set('k', entryAt(clock.now() - 120_000, 1));
    expect(await store.get('k')).toBeUndefined();
  });

  it('hands out deeply frozen values so one reader cannot corrupt the next', async () => {
    const clock = manualClock();
    const store = createMemoryCacheStore({ now: clock.now });
    await store.set('k', entryAt(clock.now(), { rows: [{ n: 1 }] }));
    const value = (await store.get('k'))?.value as { rows: { n: number }[] };
    expect(() => {
      value.rows[0]!.n = 2;
    }).toThrow(TypeError);
  });

  it('freezes the rows inside a value its loader had frozen only at the top', async () => {
    const clock = manualClock();
    const store = createMemoryCacheStore({ now: clock.now });
    await store.set('k', entryAt(clock.now(), Object.freeze({ rows: [{ n: 1 }] })));
    const value = (await store.get('k'))?.value as { rows: { n: number }[] };
    expect(() => {
      value.rows[0]!.n = 2;
    }).toThrow(TypeError);
    expect(value.rows[0]!.n).toBe(1);
  });

  it('an expired write removes the key and takes no room from live entries', async () => {
    const clock = manualClock();
    const live = entryAt(clock.now(), 'x'.repeat(1_000));
    const small = entryAt(clock.now(), 'old');
    const store = createMemoryCacheStore({ maxBytes: entryBytes('live', live) + entryBytes('gone', small), now: clock.now });
    await store.set('live', live);
    await store.set('gone', small);
    await store.set('gone', entryAt(clock.now() - 120_000, 'y'.repeat(1_000)));
    expect(await store.get('gone')).toBeUndefined();
    expect((await store.get('live'))?.value).toBe('x'.repeat(1_000));
  });
});

describe('entryBytes', () => {
  it('counts three heap bytes per JSON byte, two per key character and a fixed overhead', () => {
    const entry = entryAt(0, { x: 1 }); // {"x":1} is 7 bytes
    expect(entryBytes('ab', entry)).toBe(7 * 3 + 2 * 2 + 128);
    expect(entryBytes('ab', { ...entry, value: undefined })).toBe(2 * 2 + 128);
    expect(entryBytes('ab', { ...entry, bytes: 42 })).toBe(42);
  });
});
