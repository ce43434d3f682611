// The two-level store without Redis: two in-process stores stand in for the local and the shared layer.
import { describe, expect, it } from 'vitest';
import type { CacheEntry, CacheStore, StoreHealth } from '../../src/cache/cache-store.ts';
import { layeredCacheStore } from '../../src/cache/layered-cache-store.ts';
import { createMemoryCacheStore } from '../../src/cache/memory-cache-store.ts';
import { manualClock } from './redis-helpers.ts';

const clock = manualClock();
const entry = (value: unknown): CacheEntry => ({
  value,
  source: 'analytics:1',
  storedAt: clock.now(),
  freshUntil: clock.now() + 1_000,
  revalidateUntil: clock.now() + 2_000,
  staleUntil: clock.now() + 60_000,
});
const withHealth = (store: CacheStore, health: StoreHealth): CacheStore => ({ ...store, health: () => health });

describe('layered cache store', () => {
  it('answers from the local layer first, even when the shared one holds another copy', async () => {
    const local = createMemoryCacheStore({ now: clock.now });
    const shared = createMemoryCacheStore({ now: clock.now });
    await local.set('k', entry('near'));
    await shared.set('k', entry('far'));
    expect((await layeredCacheStore(local, shared).get('k'))?.value).toBe('near');
  });

  it('deletes from both layers', async () => {
    const local = createMemoryCacheStore({ now: clock.now });
    const shared = createMemoryCacheStore({ now: clock.now });
    const layered = layeredCacheStore(local, shared);
    await layered.set('k', entry('v'));
    await layered.delete('k');
    expect(await local.get('k')).toBeUndefined();
    expect(await shared.get('k')).toBeUndefined();
    expect(await layered.get('k')).toBeUndefined();
  });

  it('reports the shared layer when it is degraded, else the local one', () => {
    const ok = createMemoryCacheStore();
    const sharedDown = withHealth(createMemoryCacheStore(), { status: 'degraded', detail: 'redis unreachable' });
    const localDown = withHealth(createMemoryCacheStore(), { status: 'degraded', detail: 'local trouble' });
    expect(layeredCacheStore(ok, sharedDown).health()).toEqual({ status: 'degraded', detail: 'redis unreachable' });
    expect(layeredCacheStore(localDown, ok).health()).toEqual({ status: 'degraded', detail: 'local trouble' });
    expect(layeredCacheStore(ok, ok).health()).toEqual({ status: 'ok' });
  });
});
