// Per-execution engine1 loader: searchAnalytics.query through the cache (keyed on the request, the site and the
// credential), with the provider's request defaults (the freshest days included), paged
// by the client when more rows are wanted than one page holds. Identical requests in one execution go out once.
import type { CachedResult } from '../cache/cached-fetch.ts';
import { toCacheKey } from '../cache/cache-key.ts';
import type { CachePolicy } from '../cache/ttl-policy.ts';
import type { LoaderDeps } from './loader-deps.ts';
import type { Engine1Client, SearchAnalyticsRequest } from '../providers/engine1/client.ts';
import type { SearchRow } from '../providers/engine1/normalize.ts';
import { toSearchAnalyticsRequest } from '../providers/engine1/search-request.ts';
import { openCredential, trackUpstream, type ConnectedSource } from './connected-source.ts';

/** What a cached search analytics answer holds (JSON-serialisable). */
export interface Engine1Result {
  rows: SearchRow[];
  /** Last complete day (only known when grouped by date). */
  dataThrough?: string;
  firstIncompleteDate?: string;
  firstIncompleteHour?: string;
  /** True when the client's page cap stopped before all rows were read. */
  truncated: boolean;
}

export interface Engine1Loader {
  query(source: ConnectedSource, request: SearchAnalyticsRequest, policy: CachePolicy, force: boolean): Promise<CachedResult<Engine1Result>>;
}

export function createEngine1Loader(ctx: LoaderDeps): Engine1Loader {
  const clients = new Map<string, Promise<Engine1Client>>();
  const once = new Map<string, Promise<CachedResult<Engine1Result>>>();

  const clientFor = (cs: ConnectedSource) => {
    let client = clients.get(cs.sourceId);
    if (!client) {
      client = openCredential(ctx, cs).then((credential) => ctx.services.providers.engine1(credential.secret, cs.record.siteUrl ?? ''));
      clients.set(cs.sourceId, client);
    }
    return client;
  };

  return {
    query(cs, input, policy, force) {
      const request = toSearchAnalyticsRequest(input);
      const key = toCacheKey({ operation: 'engine1.searchAnalytics', source: cs.sourceId, credential: cs.credentialId, request });
      const memo = `${force ? 'force:' : ''}${key}`;
      let result = once.get(memo);
      if (!result) {
        result = ctx.cachedFetch({
          key,
          source: cs.sourceId,
          policy,
          force,
          load: async () => {
            const client = await clientFor(cs);
            const answer = await trackUpstream(ctx, cs, () => client.querySearchAnalytics(request));
            return {
              rows: answer.rows,
              truncated: answer.truncated,
              ...(answer.dataThrough ? { dataThrough: answer.dataThrough } : {}),
              ...(answer.firstIncompleteDate ? { firstIncompleteDate: answer.firstIncompleteDate } : {}),
              ...(answer.firstIncompleteHour ? { firstIncompleteHour: answer.firstIncompleteHour } : {}),
            } satisfies Engine1Result;
          },
        });
        once.set(memo, result);
      }
      return result;
    },
  };
}
