// Site metrics query fields beyond the summary: timeseries, dimension breakdown, realtime and metadata
// (REST /metrics/{projectKey}/…, MCP get_site_*), typed: metrics by name are MetricValue lists with `metric(name)`.
import { siteBreakdown, type SiteBreakdown } from '../../reports/site-breakdown.ts';
import { siteMetadata, type FieldInfo, type SiteMetadata } from '../../reports/site-metadata.ts';
import { siteRealtime, type SiteRealtime } from '../../reports/site-realtime.ts';
import { siteTimeseries, type SiteTimeseries, type TimeseriesPoint } from '../../reports/site-timeseries.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ComparedNumberRef, MetricValueRef, namedFigures, toCompared, type NamedFigure } from './compared-number.ts';
import { MetaRef, PeriodRef } from './envelope.ts';

const SiteTimeseriesPointRef = builder.objectRef<TimeseriesPoint>('SiteTimeseriesPoint').implement({
  description: 'One bucket of the period.',
  fields: (t) => ({
    date: t.field({ type: 'Date', nullable: true, description: "The bucket's first day (interval day, week or month).", resolve: (p) => p.date ?? null }),
    time: t.string({ nullable: true, description: 'ISO-8601 local hour with offset (interval hour).', resolve: (p) => p.time ?? null }),
    value: t.field({
      type: ComparedNumberRef,
      description: "The bucket's value; when comparing, previous covers the earlier range's days paired with the bucket (day k of the earlier range counts in the bucket of the period's day k; hours: the same wall-clock hour).",
      resolve: (p) => toCompared(p.value),
    }),
  }),
});

export const SiteTimeseriesRef = builder.objectRef<SiteTimeseries>('SiteTimeseries').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    metric: t.exposeString('metric'),
    interval: t.exposeString('interval'),
    points: t.field({ type: [SiteTimeseriesPointRef], description: 'Every bucket of the period.', resolve: (s) => s.points }),
    total: t.field({ type: ComparedNumberRef, description: 'The whole period.', resolve: (s) => toCompared(s.total) }),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

/** A breakdown row with what its metric fields need: the metric names in response order. */
interface BreakdownRow {
  value: string;
  figures: NamedFigure[];
}

const BreakdownRowRef = builder.objectRef<BreakdownRow>('BreakdownRow').implement({
  description: 'One value of the dimension and its metrics.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The dimension value.' }),
    metrics: t.field({ type: [MetricValueRef], description: 'The requested metrics in request order.', resolve: (r) => r.figures }),
    metric: t.field({
      type: ComparedNumberRef,
      nullable: true,
      description: 'One of the requested metrics by name; null for a metric not requested.',
      args: { name: t.arg.string({ required: true }) },
      resolve: (r, { name }) => r.figures.find((f) => f.name === name)?.figure ?? null,
    }),
  }),
});

export const SiteBreakdownRef = builder.objectRef<SiteBreakdown>('SiteBreakdown').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    dimension: t.exposeString('dimension'),
    metrics: t.exposeStringList('metrics'),
    rows: t.field({
      type: [BreakdownRowRef],
      resolve: (s) => s.rows.map((row) => ({ value: String(row[s.dimension]), figures: namedFigures(row, s.metrics) })),
    }),
    totalRows: t.exposeInt('totalRows'),
    limit: t.exposeInt('limit'),
    offset: t.exposeInt('offset'),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

type Realtime = SiteRealtime;
const ActiveMinuteRef = builder.objectRef<Realtime['perMinute'][number]>('ActiveMinute').implement({
  fields: (t) => ({ minutesAgo: t.exposeInt('minutesAgo', { description: '0 (this minute) to 29.' }), activeUsers: t.exposeInt('activeUsers') }),
});
const ActivePageRef = builder.objectRef<Realtime['topPages'][number]>('ActivePage').implement({
  fields: (t) => ({ page: t.exposeString('page'), activeUsers: t.exposeInt('activeUsers'), screenPageViews: t.exposeInt('screenPageViews') }),
});
const ActiveCountryRef = builder.objectRef<Realtime['countries'][number]>('ActiveCountry').implement({
  fields: (t) => ({ country: t.exposeString('country'), activeUsers: t.exposeInt('activeUsers') }),
});
const ActiveDeviceRef = builder.objectRef<Realtime['devices'][number]>('ActiveDevice').implement({
  fields: (t) => ({ device: t.exposeString('device'), activeUsers: t.exposeInt('activeUsers') }),
});
const ActiveEventRef = builder.objectRef<Realtime['topEvents'][number]>('ActiveEvent').implement({
  fields: (t) => ({ eventName: t.exposeString('eventName'), eventCount: t.exposeInt('eventCount') }),
});

export const SiteRealtimeRef = builder.objectRef<SiteRealtime>('SiteRealtime').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    activeUsers: t.exposeInt('activeUsers', { description: 'Users active in the last 30 minutes.' }),
    perMinute: t.field({ type: [ActiveMinuteRef], resolve: (s) => s.perMinute }),
    topPages: t.field({ type: [ActivePageRef], resolve: (s) => s.topPages }),
    countries: t.field({ type: [ActiveCountryRef], resolve: (s) => s.countries }),
    devices: t.field({ type: [ActiveDeviceRef], resolve: (s) => s.devices }),
    topEvents: t.field({ type: [ActiveEventRef], resolve: (s) => s.topEvents }),
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

export const SiteMetadataRef = builder.objectRef<SiteMetadata>('SiteMetadata').implement({
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
