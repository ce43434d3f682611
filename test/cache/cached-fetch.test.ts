import { describe, expect, it, vi } from 'vitest';
import { createCachedFetch, defaultRetryableForStale, type CachedFetchOptions } from '../../src/cache/cached-fetch.ts';
import type { CacheStore } from '../../src/cache/cache-store.ts';
import { createMemoryCacheStore } from '../../src/cache/memory-cache-store.ts';
import type { CachePolicy } from '../../src/cache/ttl-policy.ts';
import { AppError } from '../../src/errors/app-error.ts';
import { expectAppErrorRejection } from '../domain/expect-app-error.ts';
import { deferred, manualClock } from './redis-helpers.ts';
import { expectEvery } from '../helpers/expect-every.ts';

const policy: CachePolicy = { freshMs: 1_000, revalidateMs: 1_000, staleIfErrorMs: 10_000 };

function setup() {
  const clock = manualClock();
  const store = createMemoryCacheStore({ now: clock.now });
  const logger = { warn: vi.fn() };
  const cachedFetch = createCachedFetch({ store, now: clock.now, logger });
  let loads = 0;
  let next: () => Promise<unknown> = async () => `v${loads}`;
  const load = () => {
    loads += 1;
    return next();
  };
  const options = (extra: Partial<CachedFetchOptions<unknown>> = {}): CachedFetchOptions<unknown> => ({
    key: 'k',
    source: 'analytics:1',
    policy,
    load,
    ...extra,
  });
  return {
    clock,
    store,
    logger,
    cachedFetch,
    options,
    loads: () => loads,
    willLoad(fn: () => Promise<unknown>) {
      next = fn;
    },
  };
}

const upstreamDown = () => Promise.reject(new AppError('upstream_error', 'analytics answered 503', { provider: 'analytics' }));

describe('cachedFetch', () => {
  it('loads on a miss, then serves hits until the entry goes stale', async () => {
    const t = setup();
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'v1', cache: 'miss', storedAt: t.clock.now(), warnings: [] });
    t.clock.advance(999);
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'v1', cache: 'hit' });
    expect(t.loads()).toBe(1);
  });

  it('serves stale within the revalidate window and refreshes exactly once in the background', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    t.clock.advance(1_500);
    const gate = deferred<string>();
    t.willLoad(() => gate.promise);

    const reads = await Promise.all(Array.from({ length: 20 }, () => t.cachedFetch(t.options())));
    expectEvery(reads, (r) => r.cache === 'stale' && r.value === 'v1');
    gate.resolve('v2');
    await t.cachedFetch.drain();

    expect(t.loads()).toBe(2);
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'v2', cache: 'hit' });
  });

  it('does not start a second refresh for a stale read that raced a finished one', async () => {
    const clock = manualClock();
    const inner = createMemoryCacheStore({ now: clock.now });
    const hold = { next: undefined as ReturnType<typeof deferred> | undefined };
    // A read that saw the stale entry but whose refresh starts only after another refresh has finished.
    const store: CacheStore = {
      ...inner,
      async get(key) {
        const entry = await inner.get(key);
        const gate = hold.next;
        hold.next = undefined;
        if (gate !== undefined) await gate.promise;
        return entry;
      },
    };
    const cachedFetch = createCachedFetch({ store, now: clock.now });
    let loads = 0;
    const options = { key: 'k', source: 'analytics:1', policy, load: async () => `v${++loads}` };
    await cachedFetch(options);
    clock.advance(1_500);

    const paused = deferred();
    hold.next = paused;
    const slowRead = cachedFetch(options);
    expect((await cachedFetch(options)).cache).toBe('stale');
    await cachedFetch.drain();
    paused.resolve();
    expect((await slowRead).cache).toBe('stale');
    await cachedFetch.drain();
    expect(loads).toBe(2);
  });

  it('logs a failed background refresh, keeps serving stale, and tries again on the next read', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    t.clock.advance(1_500);
    t.willLoad(upstreamDown);
    expect((await t.cachedFetch(t.options())).cache).toBe('stale');
    await t.cachedFetch.drain();
    expect(t.logger.warn).toHaveBeenCalledTimes(1);

    t.willLoad(async () => 'v3');
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'v1', cache: 'stale' });
    await t.cachedFetch.drain();
    expect(t.loads()).toBe(3);
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'v3', cache: 'hit' });
  });

  it('past the revalidate window, reloads before answering', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    t.clock.advance(2_500);
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'v2', cache: 'miss' });
  });

  it('serves the stale copy with a warning when the reload fails upstream (stale-if-error)', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    const storedAt = t.clock.now();
    t.clock.advance(5_000);
    t.willLoad(upstreamDown);
    const result = await t.cachedFetch(t.options());
    expect(result).toMatchObject({ value: 'v1', cache: 'stale', storedAt });
    expect(result.warnings).toEqual([{ code: 'stale_data', message: expect.stringContaining('upstream_error') }]);
  });

  it('does not mask caller errors with a stale copy', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    t.clock.advance(5_000);
    t.willLoad(() => Promise.reject(new AppError('invalid_parameter', 'unknown metric "sesions"')));
    await expect(t.cachedFetch(t.options())).rejects.toMatchObject({ code: 'invalid_parameter' });
  });

  it('lets the caller decide which failures a stale copy may answer', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    t.clock.advance(5_000);
    t.willLoad(upstreamDown);
    await expect(t.cachedFetch(t.options({ isRetryableForStale: () => false }))).rejects.toMatchObject({ code: 'upstream_error' });
  });

  it('throws when nothing usable is cached, and never caches the failure', async () => {
    const t = setup();
    t.willLoad(upstreamDown);
    await expect(t.cachedFetch(t.options())).rejects.toMatchObject({ code: 'upstream_error' });
    t.clock.advance(20_000); // an entry could not be stale-served anyway: this is about the failure not being stored
    t.willLoad(async () => 'ok');
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'ok', cache: 'miss' });
    expect(t.loads()).toBe(2);
  });

  it('loads again right after a failure, without any time passing', async () => {
    const t = setup();
    t.willLoad(upstreamDown);
    await expectAppErrorRejection(t.cachedFetch(t.options()), { code: 'upstream_error', status: 502, provider: 'analytics' });
    t.willLoad(async () => 'ok');
    expect((await t.cachedFetch(t.options())).value).toBe('ok');
    expect(t.loads()).toBe(2);
  });

  it('force bypasses a fresh entry, loads, and stores the refresh', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    expect(await t.cachedFetch(t.options({ force: true }))).toMatchObject({ value: 'v2', cache: 'refresh' });
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'v2', cache: 'hit' });
    expect(t.loads()).toBe(2);
  });

  it('force falls back to the cached copy, marked stale, when upstream fails', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    t.willLoad(upstreamDown);
    const result = await t.cachedFetch(t.options({ force: true }));
    expect(result).toMatchObject({ value: 'v1', cache: 'stale' });
    expect(result.warnings[0]?.code).toBe('stale_data');
  });

  it('makes one upstream call for concurrent misses on one key', async () => {
    const t = setup();
    const gate = deferred<string>();
    t.willLoad(() => gate.promise);
    const calls = Array.from({ length: 25 }, () => t.cachedFetch(t.options()));
    gate.resolve('shared');
    const results = await Promise.all(calls);
    expect(t.loads()).toBe(1);
    expectEvery(results, (r) => r.value === 'shared' && r.cache === 'miss');
  });

  it('never serves an entry recorded for another data source', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    const other = await t.cachedFetch(t.options({ source: 'analytics:2' }));
    expect(other.cache).toBe('miss');
    expect(t.loads()).toBe(2);
  });
});

describe('cache windows at their exact edges', () => {
  it('is a hit until freshUntil, stale-while-revalidate from then until revalidateUntil, and loads again after', async () => {
    const t = setup();
    const first = await t.cachedFetch(t.options());
    expect(first.freshUntil).toBe(t.clock.now() + 1_000);
    t.clock.advance(1_000); // exactly freshUntil: no longer fresh
    const stale = await t.cachedFetch(t.options());
    expect(stale).toMatchObject({ value: 'v1', cache: 'stale' });
    // A stale answer says it is not fresh: it bounds caches built on top of it by its own age.
    expect(stale.freshUntil).toBe(first.storedAt);
    await t.cachedFetch.drain();
    expect(t.loads()).toBe(2);
    t.clock.advance(2_000); // exactly revalidateUntil of the refreshed entry: load first
    t.willLoad(async () => 'v3');
    expect(await t.cachedFetch(t.options())).toMatchObject({ value: 'v3', cache: 'miss' });
  });

  it('logs a failed background refresh and a stale answer served after a failure', async () => {
    const t = setup();
    await t.cachedFetch(t.options());
    t.clock.advance(1_500);
    t.willLoad(upstreamDown);
    await t.cachedFetch(t.options());
    await t.cachedFetch.drain();
    expect(t.logger.warn).toHaveBeenCalledWith(expect.objectContaining({ key: 'k', source: 'analytics:1' }), 'background cache refresh failed');
    t.clock.advance(1_000);
    expect((await t.cachedFetch(t.options())).cache).toBe('stale');
    expect(t.logger.warn).toHaveBeenLastCalledWith(expect.objectContaining({ key: 'k', source: 'analytics:1', err: expect.any(AppError) }), 'serving stale cache entry after upstream failure');
  });
});

describe('without a logger, and racing another instance', () => {
  it('still serves stale after a failure and survives a failed background refresh', async () => {
    const clock = manualClock();
    const cachedFetch = createCachedFetch({ store: createMemoryCacheStore({ now: clock.now }), now: clock.now });
    const options = (load: () => Promise<unknown>): CachedFetchOptions<unknown> => ({ key: 'k', source: 'analytics:1', policy, load });
    await cachedFetch(options(async () => 'v1'));
    clock.advance(1_500);
    expect((await cachedFetch(options(() => Promise.reject(new TypeError('fetch failed'))))).cache).toBe('stale');
    await cachedFetch.drain();
    clock.advance(1_000);
    const answer = await cachedFetch(options(() => Promise.reject(new TypeError('fetch failed'))));
    expect(answer).toMatchObject({ value: 'v1', cache: 'stale' });
    // A failure that is not one of ours is named generically in the warning.
    expect(answer.warnings[0]?.message).toContain('(upstream_error)');
  });

  it('does not take an entry another instance stored meanwhile once it is no longer fresh', async () => {
    const clock = manualClock();
    const memory = createMemoryCacheStore({ now: clock.now });
    let firstRead = true;
    // Another instance stores its answer between this instance's read and its flight's second look.
    const store: CacheStore = {
      ...memory,
      async get(key) {
        if (!firstRead) return memory.get(key);
        firstRead = false;
        await memory.set(key, { value: 'theirs', source: 'analytics:1', storedAt: clock.now() - 10, freshUntil: clock.now(), revalidateUntil: clock.now() + 1_000, staleUntil: clock.now() + 10_000 });
        return undefined;
      },
    };
    const cachedFetch = createCachedFetch({ store, now: clock.now });
    let loads = 0;
    const answer = await cachedFetch({ key: 'k', source: 'analytics:1', policy, load: async () => `ours${(loads += 1)}` });
    expect(answer).toMatchObject({ value: 'ours1', cache: 'miss' });
  });
});

describe('defaultRetryableForStale', () => {
  it.each([
    ['a 500', new AppError('upstream_error', 'x', { status: 500 }), true],
    ['a 502', new AppError('upstream_error', 'x'), true],
    ['a spent quota (429)', new AppError('upstream_quota_exhausted', 'x'), true],
    ['a network error', new TypeError('fetch failed'), true],
    ['a caller error (400)', new AppError('invalid_parameter', 'x', { param: 'period' }), false],
    ['a burst limit (429, not quota)', new AppError('rate_limited', 'x'), false],
    ['a rejected credential (424)', new AppError('upstream_credential_invalid', 'x'), false],
  ])('%s → %s', (_name, error, expected) => {
    expect(defaultRetryableForStale(error)).toBe(expected);
  });
});
