// The per-execution context: who is asking, process-wide services, and fresh DataLoaders (never shared
// between executions, so batching and memoisation cannot leak data across callers).
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { CachedFetch, CachedFetchOptions } from '../cache/cached-fetch.ts';
import type { SharedState } from '../cache/shared-state.ts';
import type { Logger } from '../logging/logger.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { OutageMemo } from '../store/outage-memo.ts';
import type { Database } from '../store/schema.ts';
import { createAnalyticsLoader, type AnalyticsLoader } from '../loaders/analytics-loader.ts';
import { createEngine1Loader, type Engine1Loader } from '../loaders/engine1-loader.ts';
import { createEngine2Loader, type Engine2Loader } from '../loaders/engine2-loader.ts';
import { createStoreLoaders, type StoreLoaders } from '../loaders/store-loaders.ts';

/** Process-wide things resolvers may use; created once and injected. */
export interface Services {
  db: Kysely<Database>;
  clock: () => Date;
  logger: Logger;
  /** Opens stored provider credentials. */
  box: SecretBox;
  providers: ProviderClients;
  shared: SharedState;
  /** Recent store answers that reads may fall back on while the database is away. */
  storeMemo: OutageMemo;
}

export interface GraphQLContext {
  readonly principal: Principal;
  readonly requestId: string;
  readonly services: Services;
  readonly store: StoreLoaders;
  readonly loaders: ProviderLoaders;
  /** The process cache, seen through this execution: every result it hands out bounds `freshUntil`. */
  readonly cachedFetch: CachedFetch;
  /** Until when everything this execution read from the cache stays fresh (Infinity: it read nothing cached). */
  freshUntil(): number;
}

/** Per-execution provider loaders (batching and dedupe live inside; the cache below them is process-wide). */
export interface ProviderLoaders {
  readonly analytics: AnalyticsLoader;
  readonly engine1: Engine1Loader;
  readonly engine2: Engine2Loader;
}

export function createGraphQLContext(services: Services, principal: Principal, requestId: string): GraphQLContext {
  let freshUntil = Number.POSITIVE_INFINITY;
  const observed = (<T>(options: CachedFetchOptions<T>) =>
    services.shared.cachedFetch(options).then((result) => {
      freshUntil = Math.min(freshUntil, result.freshUntil);
      return result;
    })) as CachedFetch;
  observed.drain = () => services.shared.cachedFetch.drain();
  const context: GraphQLContext = {
    principal,
    requestId,
    services,
    store: createStoreLoaders(services.db, principal, services.storeMemo),
    loaders: {} as ProviderLoaders,
    cachedFetch: observed,
    freshUntil: () => freshUntil,
  };
  Object.assign(context.loaders, {
    analytics: createAnalyticsLoader(context),
    engine1: createEngine1Loader(context),
    engine2: createEngine2Loader(context),
  });
  return context;
}
