// Per-execution analytics loader: every report of one execution goes through the cache, and the misses of one
// property leave together as batchRunReports calls (≤ 5 reports each) — so a summary with its comparison, or
// several breakdowns of one request, cost one upstream round trip. Identical requests are made once.
import DataLoader from 'dataloader';
import type { CachedResult } from '../cache/cached-fetch.ts';
import { toCacheKey } from '../cache/cache-key.ts';
import type { CachePolicy } from '../cache/ttl-policy.ts';
import type { LoaderDeps } from './loader-deps.ts';
import type { AnalyticsClient, AnalyticsMetadata, RunFunnelReportRequest, RunRealtimeReportRequest, RunReportRequest } from '../providers/analytics/client.ts';
import type { AnalyticsReport, RealtimeReport } from '../providers/analytics/normalize.ts';
import type { FunnelReport } from '../providers/analytics/normalize-funnel.ts';
import { createBatchGate } from './batch-gate.ts';
import { notePropertySettings, openCredential, trackUpstream, type ConnectedSource } from './connected-source.ts';
import { metadataPolicy, realtimePolicy } from '../cache/upstream-policy.ts';

export interface ReportKey {
  source: ConnectedSource;
  request: RunReportRequest;
  policy: CachePolicy;
  force: boolean;
}

export interface AnalyticsLoader {
  report(source: ConnectedSource, request: RunReportRequest, policy: CachePolicy, force: boolean): Promise<CachedResult<AnalyticsReport>>;
  metadata(source: ConnectedSource, force?: boolean): Promise<CachedResult<AnalyticsMetadata>>;
  realtime(source: ConnectedSource, request: RunRealtimeReportRequest): Promise<CachedResult<RealtimeReport>>;
  funnel(source: ConnectedSource, request: RunFunnelReportRequest, policy: CachePolicy, force: boolean): Promise<CachedResult<FunnelReport>>;
}

export function createAnalyticsLoader(ctx: LoaderDeps): AnalyticsLoader {
  const clients = new Map<string, Promise<AnalyticsClient>>();
  const missBatchers = new Map<string, DataLoader<ReportKey, AnalyticsReport, string>>();

  const clientFor = (cs: ConnectedSource) => {
    let client = clients.get(cs.sourceId);
    if (!client) {
      client = openCredential(ctx, cs).then((credential) => ctx.services.providers.analytics(credential.secret, cs.record.propertyId ?? ''));
      clients.set(cs.sourceId, client);
    }
    return client;
  };

  const gate = createBatchGate();

  const missBatcherFor = (cs: ConnectedSource) => {
    let batcher = missBatchers.get(cs.sourceId);
    if (!batcher) {
      batcher = new DataLoader<ReportKey, AnalyticsReport, string>(
        async (keys) => {
          const client = await clientFor(cs);
          const reports = await trackUpstream(ctx, cs, () => client.batchRunReports(keys.map((k) => k.request)));
          if (reports[0]) await notePropertySettings(ctx, cs, reports[0]);
          return reports;
        },
        { cache: false, batchScheduleFn: (run) => gate.whenReady(cs.sourceId, run) },
      );
      missBatchers.set(cs.sourceId, batcher);
    }
    return batcher;
  };

  const cacheKeyOf = (operation: string, cs: ConnectedSource, request: unknown) =>
    toCacheKey({ operation, source: cs.sourceId, credential: cs.credentialId, request });

  const reports = new DataLoader<ReportKey, CachedResult<AnalyticsReport>, string>(
    async (keys) =>
      Promise.all(
        keys.map((key) => {
          const lookedUp = gate.startLookup(key.source.sourceId);
          return ctx
            .cachedFetch({
              key: cacheKeyOf('analytics.report', key.source, key.request),
              source: key.source.sourceId,
              policy: key.policy,
              force: key.force,
              load: () => {
                lookedUp();
                return missBatcherFor(key.source).load(key);
              },
            })
            .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
            .finally(lookedUp);
        }),
      ),
    { cacheKeyFn: (key) => `${key.force ? 'force:' : ''}${cacheKeyOf('analytics.report', key.source, key.request)}` },
  );

  const once = new Map<string, Promise<CachedResult<unknown>>>();
  const single = <T>(operation: string, cs: ConnectedSource, request: unknown, policy: CachePolicy, force: boolean, call: (client: AnalyticsClient) => Promise<T>) => {
    const key = cacheKeyOf(operation, cs, request);
    let result = once.get(key) as Promise<CachedResult<T>> | undefined;
    if (!result) {
      result = ctx.cachedFetch({ key, source: cs.sourceId, policy, force, load: async () => trackUpstream(ctx, cs, async () => call(await clientFor(cs))) });
      once.set(key, result);
    }
    return result;
  };

  return {
    report: (source, request, policy, force) => reports.load({ source, request, policy, force }),
    metadata: (cs, force = false) => {
      const fresh = !once.has(cacheKeyOf('analytics.metadata', cs, {}));
      const result = single('analytics.metadata', cs, {}, metadataPolicy(ctx.services.clock()), force, (c) => c.getMetadata());
      if (fresh) {
        const listed = gate.startListing(cs.sourceId);
        void result.then(listed, listed);
      }
      return result;
    },
    realtime: (cs, request) => single('analytics.realtime', cs, request, realtimePolicy(ctx.services.clock()), false, (c) => c.runRealtimeReport(request)),
    funnel: (cs, request, policy, force) => single('analytics.funnel', cs, request, policy, force, (c) => c.runFunnelReport(request)),
  };
}
