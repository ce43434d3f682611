// The analytics metric and dimension names a property accepts, from its (cached) metadata: standard and custom
// names validate against it, so typos get a 400 with close matches and custom definitions just work.
import type { CachedResult } from '../cache/cached-fetch.ts';
import type { ReportDeps } from './report-deps.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import type { AnalyticsMetadata } from '../providers/analytics/client.ts';

export interface AnalyticsFields {
  metrics: string[];
  dimensions: string[];
  metadata: CachedResult<AnalyticsMetadata>;
  /** GA metric type (TYPE_INTEGER, TYPE_FLOAT, TYPE_SECONDS, …) by metric name. */
  metricType(name: string): string | undefined;
}

export async function analyticsFields(ctx: ReportDeps, source: ConnectedSource): Promise<AnalyticsFields> {
  const metadata = await ctx.loaders.analytics.metadata(source);
  const types = new Map(metadata.value.metrics.map((m) => [m.apiName, m.type]));
  return {
    metrics: metadata.value.metrics.map((m) => m.apiName),
    dimensions: metadata.value.dimensions.map((d) => d.apiName),
    metadata,
    metricType: (name) => types.get(name),
  };
}
