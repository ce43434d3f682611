// Per-execution engine2 loader: Bing's stats methods take no dates and return the whole history, so each is
// fetched once per site per history TTL, cached, and cut to the period by the caller. One execution asks each
// method at most once.
import type { CachedResult } from '../cache/cached-fetch.ts';
import { toCacheKey } from '../cache/cache-key.ts';
import type { LoaderDeps } from './loader-deps.ts';
import type { Engine2Client } from '../providers/engine2/client.ts';
import type { Engine2PageRow, Engine2QueryRow, Engine2TrafficRow } from '../providers/engine2/normalize.ts';
import { openCredential, trackUpstream, type ConnectedSource } from './connected-source.ts';
import { historyPolicy } from '../cache/upstream-policy.ts';

export interface Engine2Loader {
  /** Weekly rows per query (GetQueryStats). */
  queryStats(source: ConnectedSource, force: boolean): Promise<CachedResult<Engine2QueryRow[]>>;
  /** Weekly rows per page (GetPageStats). */
  pageStats(source: ConnectedSource, force: boolean): Promise<CachedResult<Engine2PageRow[]>>;
  /** Daily site clicks and impressions (GetRankAndTrafficStats). */
  trafficStats(source: ConnectedSource, force: boolean): Promise<CachedResult<Engine2TrafficRow[]>>;
}

type Method = 'GetQueryStats' | 'GetPageStats' | 'GetRankAndTrafficStats';

export function createEngine2Loader(ctx: LoaderDeps): Engine2Loader {
  const clients = new Map<string, Promise<Engine2Client>>();
  const once = new Map<string, Promise<CachedResult<unknown>>>();

  const clientFor = (cs: ConnectedSource) => {
    let client = clients.get(cs.sourceId);
    if (!client) {
      client = openCredential(ctx, cs).then((credential) => ctx.services.providers.engine2(credential.secret, cs.record.siteUrl ?? ''));
      clients.set(cs.sourceId, client);
    }
    return client;
  };

  function history<T>(cs: ConnectedSource, method: Method, force: boolean, call: (client: Engine2Client) => Promise<T>): Promise<CachedResult<T>> {
    const key = toCacheKey({ operation: `engine2.${method}`, source: cs.sourceId, credential: cs.credentialId, request: { method } });
    const memo = `${force ? 'force:' : ''}${key}`;
    let result = once.get(memo) as Promise<CachedResult<T>> | undefined;
    if (!result) {
      result = ctx.cachedFetch({
        key,
        source: cs.sourceId,
        policy: historyPolicy(ctx.services.clock()),
        force,
        load: async () => {
          const client = await clientFor(cs);
          return trackUpstream(ctx, cs, () => call(client));
        },
      });
      once.set(memo, result);
    }
    return result;
  }

  return {
    queryStats: (cs, force) => history(cs, 'GetQueryStats', force, (c) => c.getQueryStats()),
    pageStats: (cs, force) => history(cs, 'GetPageStats', force, (c) => c.getPageStats()),
    trafficStats: (cs, force) => history(cs, 'GetRankAndTrafficStats', force, (c) => c.getRankAndTrafficStats()),
  };
}
