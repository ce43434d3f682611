// The one read-through cache path of provider loaders: fresh hits, stale-while-revalidate, stale-if-error, force refresh.
import type { Logger } from 'pino';
import { isAppError } from '../errors/app-error.ts';
import { entryBytesOf, type CacheEntry, type CacheStore } from './cache-store.ts';
import { jsonBytes } from './json-walk.ts';
import { systemClock, type Clock } from './clock.ts';
import { createLocalSingleFlight, type SingleFlight } from './single-flight.ts';
import { toEntryTimes, type CachePolicy } from './ttl-policy.ts';

/** `meta.cache`: how an answer was served (hit, miss, stale, refresh). */
export type CacheState = 'hit' | 'miss' | 'stale' | 'refresh';

export interface Warning {
  code: string;
  message: string;
}

export interface CachedFetchOptions<T> {
  key: string;
  /** Data source identity the entry belongs to; an entry recorded for another source is never served. */
  source: string;
  policy: CachePolicy;
  /** `force=1`: skip the cached copy, load, and store the result. */
  force?: boolean;
  /** Must resolve to a JSON-serialisable value; the cache hands it out deeply frozen. */
  load: () => Promise<T>;
  /** Which load failures may be answered with a stale copy; caller errors must surface. Default: defaultRetryableForStale. */
  isRetryableForStale?: (err: unknown) => boolean;
  /**
   * Asked before any work goes upstream: undefined lets it, an error refuses it. A refused `reload` or `refresh`
   * serves the stale copy with a warning; a refused `load` or `force` fails with the error.
   */
  admit?: (work: UpstreamWork) => Promise<Error | undefined>;
}

/** What upstream work is asked for: no copy cached, only a stale one, a background refresh, or `force=1`. */
export type UpstreamWork = 'load' | 'reload' | 'refresh' | 'force';

export interface CachedResult<T> {
  value: T;
  cache: CacheState;
  /** When the value was loaded upstream (for `Age` and `meta.fetchedAt`). */
  storedAt: number;
  /** Until when the value counts as fresh (in the past for stale answers); bounds caches built on top. */
  freshUntil: number;
  warnings: Warning[];
}

export type CachedFetch = (<T>(options: CachedFetchOptions<T>) => Promise<CachedResult<T>>) & {
  /** Resolves once every background refresh started so far has settled (tests, graceful shutdown). */
  drain(): Promise<void>;
};

export interface CachedFetchDeps {
  store: CacheStore;
  /** Default: per-instance single-flight. Pass the chained local + Redis one for cross-instance dedupe. */
  singleFlight?: SingleFlight;
  now?: Clock;
  logger?: Pick<Logger, 'warn'>;
}

/** Upstream trouble (5xx, timeouts, open circuits, spent quota, network errors) may be masked by a stale copy; caller errors may not. */
export function defaultRetryableForStale(err: unknown): boolean {
  if (!isAppError(err)) return true;
  return err.status >= 500 || err.code === 'upstream_quota_exhausted';
}

export function createCachedFetch(deps: CachedFetchDeps): CachedFetch {
  const { store } = deps;
  const now = deps.now ?? systemClock;
  const flights = deps.singleFlight ?? createLocalSingleFlight();
  const refreshes = new Set<Promise<unknown>>();

  async function readEntry(key: string, source: string): Promise<CacheEntry | undefined> {
    const entry = await store.get(key);
    return entry !== undefined && entry.source === source ? entry : undefined;
  }

  /**
   * Loads through the single-flight and stores the result. An entry stored after `acceptAfter`
   * (by a concurrent flight here or on another instance) is taken instead of loading again.
   */
  function loadAndStore<T>(options: CachedFetchOptions<T>, acceptAfter: number): Promise<CacheEntry> {
    const { key, source } = options;
    const peek = async () => {
      const entry = await readEntry(key, source);
      return entry !== undefined && entry.storedAt > acceptAfter && entry.freshUntil > now() ? entry : undefined;
    };
    const work = async () => {
      const current = await peek();
      if (current !== undefined) return current;
      const value = await options.load();
      // Measured here once, in slices, for every store below (a 25,000-row page is 3 MB of JSON).
      const bytes = entryBytesOf(key, await jsonBytes(value));
      const entry: CacheEntry = { value, source, ...toEntryTimes(options.policy, now()), bytes };
      await store.set(key, entry);
      return entry;
    };
    return flights.run(key, work, peek);
  }

  function refreshInBackground<T>(options: CachedFetchOptions<T>, stale: CacheEntry): void {
    const refresh = admitted(options, 'refresh')
      .then(() => loadAndStore(options, stale.storedAt))
      .catch((err: unknown) => {
        // A refresh the quota guard held back is the degradation working, not a failure.
        if (err instanceof RefusedUpstream) return;
        deps.logger?.warn({ err, key: options.key, source: options.source }, 'background cache refresh failed');
      })
      .finally(() => refreshes.delete(refresh));
    refreshes.add(refresh);
  }

  async function loadOrServeStale<T>(
    options: CachedFetchOptions<T>,
    state: 'miss' | 'refresh',
    work: UpstreamWork,
    acceptAfter: number,
    fallback: () => Promise<CacheEntry | undefined>,
  ): Promise<CachedResult<T>> {
    try {
      await admitted(options, work);
      return toResult<T>(await loadAndStore(options, acceptAfter), state);
    } catch (err) {
      const retryable = err instanceof RefusedUpstream || (options.isRetryableForStale ?? defaultRetryableForStale)(err);
      const stale = retryable ? await fallback() : undefined;
      if (stale === undefined) throw err instanceof RefusedUpstream ? err.refusal : err;
      if (err instanceof RefusedUpstream) return toResult<T>(stale, 'stale', [conservingWarning(stale)]);
      deps.logger?.warn({ err, key: options.key, source: options.source }, 'serving stale cache entry after upstream failure');
      return toResult<T>(stale, 'stale', [staleWarning(err, stale)]);
    }
  }

  async function cachedFetch<T>(options: CachedFetchOptions<T>): Promise<CachedResult<T>> {
    const start = now();
    if (options.force === true) {
      // Only an entry stored after this request began counts as its refresh.
      return loadOrServeStale(options, 'refresh', 'force', start, () => readEntry(options.key, options.source));
    }
    const entry = await readEntry(options.key, options.source);
    if (entry === undefined) return loadOrServeStale(options, 'miss', 'load', -Infinity, async () => undefined);
    if (start < entry.freshUntil) return toResult<T>(entry, 'hit');
    if (start < entry.revalidateUntil) {
      refreshInBackground(options, entry);
      return toResult<T>(entry, 'stale');
    }
    // Too old to serve without trying upstream first, but still good enough if upstream fails.
    return loadOrServeStale(options, 'miss', 'reload', entry.storedAt, async () => entry);
  }

  return Object.assign(cachedFetch, {
    async drain() {
      while (refreshes.size > 0) await Promise.allSettled(refreshes);
    },
  });
}

/** A refusal by `admit`: kept apart from upstream failures, which are logged and worded differently. */
class RefusedUpstream extends Error {
  readonly refusal: Error;
  constructor(refusal: Error) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

async function admitted(options: CachedFetchOptions<unknown>, work: UpstreamWork): Promise<void> {
  const refusal = await options.admit?.(work);
  if (refusal !== undefined) throw new RefusedUpstream(refusal);
}

function conservingWarning(entry: CacheEntry): Warning {
  return {
    code: 'quota_conserving',
    message: `The data source's provider quota is being conserved; showing data fetched at ${new Date(entry.storedAt).toISOString()}.`,
  };
}

function toResult<T>(entry: CacheEntry, cache: CacheState, warnings: Warning[] = []): CachedResult<T> {
  return { value: entry.value as T, cache, storedAt: entry.storedAt, freshUntil: cache === 'stale' ? Math.min(entry.freshUntil, entry.storedAt) : entry.freshUntil, warnings };
}

function staleWarning(err: unknown, entry: CacheEntry): Warning {
  const code = isAppError(err) ? err.code : 'upstream_error';
  return {
    code: 'stale_data',
    message: `The data source could not be refreshed (${code}); showing data fetched at ${new Date(entry.storedAt).toISOString()}.`,
  };
}
