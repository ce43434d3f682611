// SiteMetadata: the metrics and dimensions a project accepts (REST /metrics/{projectKey}/metadata, MCP get_metadata).
import { SEARCH_DIMENSION_NAMES, SEARCH_METRIC_NAMES } from '../../domain/catalogue.ts';
import { siteMetadata, type FieldInfo, type SiteMetadata } from '../../reports/site-metadata.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ENVELOPE, MetaRef } from './envelope.ts';
import { SearchDimensionRef, SearchMetricRef, wordOf } from './enums.ts';

const FieldInfoRef = builder.objectRef<FieldInfo>('FieldInfo').implement({
  description: 'A metric or dimension the property accepts.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The API name to pass in metric, metrics, dimension, order and filter.' }),
    uiName: t.exposeString('uiName', { description: "The provider's display name." }),
    description: t.exposeString('description', { description: "The provider's description." }),
    category: t.exposeString('category', { description: "The provider's grouping." }),
    custom: t.exposeBoolean('custom', { description: 'A custom definition of this property.' }),
    type: t.string({ nullable: true, description: "Metrics: the provider's value type (TYPE_INTEGER, TYPE_FLOAT, TYPE_SECONDS, TYPE_CURRENCY, …, an open list); null for dimensions.", resolve: (f) => f.type ?? null }),
  }),
});

const AnalyticsFieldsRef = builder.objectRef<SiteMetadata['analytics']>('AnalyticsFields').implement({
  description: 'Analytics metrics and dimensions of the property.',
  fields: (t) => ({
    connected: t.exposeBoolean('connected', { description: 'Whether analytics is connected (else the lists are empty).' }),
    metrics: t.field({ type: [FieldInfoRef], description: 'Metrics, standard and custom.', resolve: (a) => a.metrics }),
    dimensions: t.field({ type: [FieldInfoRef], description: 'Dimensions, standard and custom.', resolve: (a) => a.dimensions }),
  }),
});

const SearchFieldsRef = builder.objectRef<SiteMetadata['search']['engine1']>('SearchFields').implement({
  description: 'What one search engine serves.',
  fields: (t) => ({
    connected: t.exposeBoolean('connected', { description: 'Whether the engine is connected.' }),
    dimensions: t.field({ type: [SearchDimensionRef], description: 'Dimensions it can break search data down by.', resolve: (s) => s.dimensions.map((d) => wordOf(SEARCH_DIMENSION_NAMES, d)) }),
    metrics: t.field({ type: [SearchMetricRef], description: 'Its figures.', resolve: (s) => s.metrics.map((m) => wordOf(SEARCH_METRIC_NAMES, m)) }),
  }),
});

const SearchFieldsByEngineRef = builder.objectRef<SiteMetadata['search']>('SearchFieldsByEngine').implement({
  description: 'Search dimensions and metrics per engine.',
  fields: (t) => ({
    engine1: t.field({ type: SearchFieldsRef, description: 'engine1 (Google Search Console).', resolve: (s) => s.engine1 }),
    engine2: t.field({ type: SearchFieldsRef, description: 'engine2 (Bing Webmaster Tools).', resolve: (s) => s.engine2 }),
  }),
});

export const SiteMetadataRef = builder.objectRef<SiteMetadata>('SiteMetadata').implement({
  description: 'The metrics and dimensions the project accepts.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    analytics: t.field({ type: AnalyticsFieldsRef, description: 'The analytics property’s metrics and dimensions.', resolve: (m) => m.analytics }),
    search: t.field({ type: SearchFieldsByEngineRef, description: 'The search engines’ dimensions and metrics.', resolve: (m) => m.search }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (m) => m.meta }),
  }),
});

builder.queryField('metadata', (t) =>
  t.field({ type: SiteMetadataRef, nullable: true, ...INTERNAL, description: 'Metrics and dimensions the project accepts.', args: contractArgs(t.arg, ['project']), resolve: (_root, args, ctx) => siteMetadata(ctx, args) }),
);
