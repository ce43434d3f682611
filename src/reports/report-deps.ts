// What a report pipeline may reach: the caller (for scope checks), the clock, the per-execution store lookups and
// provider loaders, the execution's view of the cache, and the per-project `force` limit — nothing of GraphQL.
// `ReportDeps` extends this interface, so a resolver hands its context on unchanged.
import type { Principal } from '../auth/principal.ts';
import type { CachedFetch } from '../cache/cached-fetch.ts';
import type { Limits } from '../limits/create-limits.ts';
import type { LoaderServices } from '../loaders/loader-deps.ts';
import type { ProviderLoaders } from '../loaders/provider-loaders.ts';
import type { StoreLoaders } from '../loaders/store-loaders.ts';

/** Process-wide services a report uses: what its loaders use, plus the per-project `force` limit. */
export interface ReportServices extends LoaderServices {
  readonly shared: { readonly limits: Pick<Limits, 'consumeForce'> };
}

export interface ReportDeps {
  readonly principal: Principal;
  readonly services: ReportServices;
  /** Visible projects, their data sources and funnels, batched per execution. */
  readonly store: StoreLoaders;
  readonly loaders: ProviderLoaders;
  /** The process cache, seen through this execution: every result it hands out bounds `freshUntil`. */
  readonly cachedFetch: CachedFetch;
  /** Until when everything this execution read from the cache stays fresh (Infinity: it read nothing cached). */
  freshUntil(): number;
}
