// The per-execution context: who is asking, process-wide services, and fresh DataLoaders (never shared
// between executions, so batching and memoisation cannot leak data across callers). It extends what reports
// may reach (`ReportDeps`), so resolvers pass it on; reports and loaders never import it.
import type { Principal } from '../auth/principal.ts';
import type { CachedFetch, CachedFetchOptions } from '../cache/cached-fetch.ts';
import type { SharedState } from '../cache/shared-state.ts';
import { createProviderLoaders } from '../loaders/provider-loaders.ts';
import { createStoreLoaders } from '../loaders/store-loaders.ts';
import type { ReportDeps, ReportServices } from '../reports/report-deps.ts';
import type { ReportBudget } from './report-budget.ts';
import type { PropertyFairUse, QuotaObservation } from '../limits/property-fair-use.ts';

export type { ProviderLoaders } from '../loaders/provider-loaders.ts';

/** Process-wide things resolvers may use; created once and injected: what reports use, with the whole shared state. */
export interface Services extends ReportServices {
  shared: SharedState;
}

export interface GraphQLContext extends ReportDeps {
  readonly requestId: string;
  readonly services: Services;
  /** /api/graphql: every provider report the request reads is charged to it (./report-budget.ts). */
  readonly reportBudget?: ReportBudget;
}

export interface ContextOptions {
  reportBudget?: ReportBudget;
}

export function createGraphQLContext(services: Services, principal: Principal, requestId: string, options: ContextOptions = {}): GraphQLContext {
  let freshUntil = Number.POSITIVE_INFINITY;
  const { reportBudget } = options;
  // Every provider read of the execution passes here: the one place that charges the report budget.
  const observed = (<T>(fetchOptions: CachedFetchOptions<T>) => {
    const refused = reportBudget?.charge(fetchOptions.key);
    if (refused) return Promise.reject(refused);
    return services.shared.cachedFetch(underFairUse(services.shared.fairUse, principal, fetchOptions)).then((result) => {
      freshUntil = Math.min(freshUntil, result.freshUntil);
      return result;
    });
  }) as CachedFetch;
  observed.drain = () => services.shared.cachedFetch.drain();
  return {
    principal,
    requestId,
    services,
    store: createStoreLoaders(services.db, principal, services.storeMemo),
    loaders: createProviderLoaders({ services, cachedFetch: observed }),
    cachedFetch: observed,
    freshUntil: () => freshUntil,
    ...(reportBudget ? { reportBudget } : {}),
  };
}

/**
 * The caller's upstream work goes through the data source's fair use: admitted (and charged to the caller) or
 * refused before the provider is asked; what the provider says is left of its quota is recorded on the way back.
 */
function underFairUse<T>(fairUse: PropertyFairUse, principal: Principal, options: CachedFetchOptions<T>): CachedFetchOptions<T> {
  const caller = { id: principal.credentialId, kind: principal.kind };
  return {
    ...options,
    admit: (work) => fairUse.admit(options.source, caller, work),
    load: () =>
      options.load().then(async (value) => {
        const quota = (value as { quota?: QuotaObservation } | null)?.quota;
        if (quota !== undefined) {
          await fairUse.observe(options.source, { tokensPerHour: quota.tokensPerHour, tokensPerDay: quota.tokensPerDay, tokensPerProjectPerHour: quota.tokensPerProjectPerHour });
        }
        return value;
      }),
  };
}
