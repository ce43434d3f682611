// Site metrics query fields beyond the summary: timeseries, dimension breakdown, realtime and metadata
// (REST /metrics/{projectKey}/…, MCP get_site_*). Rows and points keyed by metric or dimension names are JSON.
import { siteBreakdown, type SiteBreakdown } from '../../reports/site-breakdown.ts';
import { siteMetadata, type FieldInfo, type SiteMetadata } from '../../reports/site-metadata.ts';
import { siteRealtime, type SiteRealtime } from '../../reports/site-realtime.ts';
import { siteTimeseries, type SiteTimeseries } from '../../reports/site-timeseries.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';

const SiteTimeseriesRef = builder.objectRef<SiteTimeseries>('SiteTimeseries').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    metric: t.exposeString('metric'),
    interval: t.exposeString('interval'),
    points: t.field({ type: 'JSON', description: '[{date|time, value}] — value is {value, previous, delta, deltaPct} when comparing.', resolve: (s) => s.points }),
    total: t.field({ type: 'JSON', resolve: (s) => s.total }),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

const SiteBreakdownRef = builder.objectRef<SiteBreakdown>('SiteBreakdown').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    dimension: t.exposeString('dimension'),
    metrics: t.exposeStringList('metrics'),
    rows: t.field({ type: 'JSON', description: '[{<dimension>: value, <metric>: number | Compared, …}]', resolve: (s) => s.rows }),
    totalRows: t.exposeInt('totalRows'),
    limit: t.exposeInt('limit'),
    offset: t.exposeInt('offset'),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

const SiteRealtimeRef = builder.objectRef<SiteRealtime>('SiteRealtime').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    activeUsers: t.exposeInt('activeUsers', { description: 'Users active in the last 30 minutes.' }),
    perMinute: t.field({ type: 'JSON', description: '[{minutesAgo: 0..29, activeUsers}]', resolve: (s) => s.perMinute }),
    topPages: t.field({ type: 'JSON', resolve: (s) => s.topPages }),
    countries: t.field({ type: 'JSON', resolve: (s) => s.countries }),
    devices: t.field({ type: 'JSON', resolve: (s) => s.devices }),
    topEvents: t.field({ type: 'JSON', resolve: (s) => s.topEvents }),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

const FieldInfoRef = builder.objectRef<FieldInfo>('FieldInfo').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    uiName: t.exposeString('uiName'),
    description: t.exposeString('description'),
    category: t.exposeString('category'),
    custom: t.exposeBoolean('custom'),
    type: t.exposeString('type', { nullable: true, description: 'Metrics only: TYPE_INTEGER, TYPE_FLOAT, TYPE_SECONDS, TYPE_CURRENCY, …' }),
  }),
});

const AnalyticsFieldsRef = builder.objectRef<SiteMetadata['analytics']>('AnalyticsFields').implement({
  fields: (t) => ({
    connected: t.exposeBoolean('connected'),
    metrics: t.field({ type: [FieldInfoRef], resolve: (a) => a.metrics }),
    dimensions: t.field({ type: [FieldInfoRef], resolve: (a) => a.dimensions }),
  }),
});

const SearchFieldsRef = builder.objectRef<SiteMetadata['search']['engine1']>('SearchFields').implement({
  fields: (t) => ({ connected: t.exposeBoolean('connected'), dimensions: t.exposeStringList('dimensions'), metrics: t.exposeStringList('metrics') }),
});

const SearchFieldsByEngineRef = builder.objectRef<SiteMetadata['search']>('SearchFieldsByEngine').implement({
  fields: (t) => ({
    engine1: t.field({ type: SearchFieldsRef, resolve: (s) => s.engine1 }),
    engine2: t.field({ type: SearchFieldsRef, resolve: (s) => s.engine2 }),
  }),
});

const SiteMetadataRef = builder.objectRef<SiteMetadata>('SiteMetadata').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    analytics: t.field({ type: AnalyticsFieldsRef, resolve: (m) => m.analytics }),
    search: t.field({ type: SearchFieldsByEngineRef, resolve: (m) => m.search }),
    meta: t.field({ type: MetaRef, resolve: (m) => m.meta }),
  }),
});

builder.queryField('siteTimeseries', (t) =>
  t.field({
    type: SiteTimeseriesRef,
    description: 'One analytics metric over time.',
    args: contractArgs(t.arg, ['project'], ['metric', 'period', 'interval', 'compare', 'force']),
    resolve: (_root, args, ctx) => siteTimeseries(ctx, args),
  }),
);

builder.queryField('siteBreakdown', (t) =>
  t.field({
    type: SiteBreakdownRef,
    description: 'Analytics metrics broken down by one dimension.',
    args: contractArgs(t.arg, ['project'], ['dimension', 'period', 'metrics', 'limit', 'offset', 'order', 'filter', 'compare', 'force']),
    resolve: (_root, args, ctx) => siteBreakdown(ctx, args),
  }),
);

builder.queryField('realtime', (t) =>
  t.field({ type: SiteRealtimeRef, description: 'Activity of the last 30 minutes.', args: contractArgs(t.arg, ['project']), resolve: (_root, args, ctx) => siteRealtime(ctx, args) }),
);

builder.queryField('metadata', (t) =>
  t.field({ type: SiteMetadataRef, description: 'Metrics and dimensions the project accepts.', args: contractArgs(t.arg, ['project']), resolve: (_root, args, ctx) => siteMetadata(ctx, args) }),
);
