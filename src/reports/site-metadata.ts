// Metadata (beyond the original spec): the metrics and dimensions this project's analytics property accepts
// (standard and custom, with types), and the search dimensions each engine serves — so clients and models can
// build valid requests.
import { SEARCH_DIMENSION_NAMES, SEARCH_DIMENSION_SOURCES, SEARCH_METRIC_NAMES } from '../domain/catalogue.ts';
import { SEARCH_SOURCES, type SearchSource } from '../domain/sources.ts';
import type { ReportDeps } from './report-deps.ts';
import { findSource, requireProject } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import type { AnalyticsMetadata } from '../providers/analytics/client.ts';

export interface FieldInfo {
  name: string;
  uiName: string;
  description: string;
  category: string;
  custom: boolean;
  type?: string;
}

export interface SiteMetadata {
  project: string;
  analytics: { connected: boolean; metrics: FieldInfo[]; dimensions: FieldInfo[] };
  search: Record<SearchSource, { connected: boolean; dimensions: string[]; metrics: string[] }>;
  meta: Meta;
}

export async function siteMetadata(ctx: ReportDeps, args: { project: string }): Promise<SiteMetadata> {
  const project = await requireProject(ctx, args.project);
  const analytics = await findSource(ctx, project, 'analytics');
  const results: CachedResult<AnalyticsMetadata>[] = analytics ? [await ctx.loaders.analytics.metadata(analytics)] : [];
  const metadata = results[0]?.value;
  const search = {} as SiteMetadata['search'];
  for (const source of SEARCH_SOURCES) {
    search[source] = {
      connected: (await findSource(ctx, project, source)) !== undefined,
      dimensions: SEARCH_DIMENSION_NAMES.filter((d) => SEARCH_DIMENSION_SOURCES[d].includes(source)),
      metrics: [...SEARCH_METRIC_NAMES],
    };
  }
  return {
    project: project.key,
    analytics: {
      connected: analytics !== undefined,
      metrics: (metadata?.metrics ?? []).map((m) => ({ name: m.apiName, uiName: m.uiName, description: m.description, category: m.category, custom: m.custom, type: m.type })),
      dimensions: (metadata?.dimensions ?? []).map((d) => ({ name: d.apiName, uiName: d.uiName, description: d.description, category: d.category, custom: d.custom })),
    },
    search,
    meta: buildMeta({
      results,
      sources: analytics ? ['analytics'] : [],
      warnings: analytics ? [] : [{ code: 'source_not_connected', message: 'analytics is not connected to this project; no metrics or dimensions are listed.' }],
      now: ctx.services.clock(),
    }),
  };
}
