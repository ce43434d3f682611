// Site metrics query fields beyond the summary: timeseries, dimension breakdown and realtime
// (REST /metrics/{projectKey}/…, MCP get_site_*), typed: metrics by name are MetricValue lists with `metric(name)`.
import { siteBreakdown, type SiteBreakdown } from '../../reports/site-breakdown.ts';
import { siteRealtime, type SiteRealtime } from '../../reports/site-realtime.ts';
import { siteTimeseries, type SiteTimeseries, type TimeseriesPoint } from '../../reports/site-timeseries.ts';
import { invalidParameter } from '../../errors/app-error.ts';
import type { Country } from '../../domain/countries.ts';
import { quoteInput } from '../../domain/quote.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ComparedNumberRef, MetricValueRef, namedFigures, toCompared, type NamedFigure } from './compared-number.ts';
import { countryOfValue, CountryRef } from './country.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { IntervalRef } from './enums.ts';
import { metricText } from './metric-fields.ts';
import { BUCKET_TEXT } from './search-timeseries.ts';

const SiteTimeseriesPointRef = builder.objectRef<TimeseriesPoint>('SiteTimeseriesPoint').implement({
  description: 'One bucket of the period.',
  fields: (t) => ({
    date: t.field({ type: 'Date', nullable: true, ...BUCKET_TEXT.date, resolve: (p) => p.date ?? null }),
    time: t.field({ type: 'DateTime', nullable: true, ...BUCKET_TEXT.time, resolve: (p) => p.time ?? null }),
    value: t.field({
      type: ComparedNumberRef,
      description:
        "The bucket's value, in the metric's unit; when comparing, previous covers the earlier range's days paired with the bucket (day k of the earlier range counts in the bucket of the period's day k; hours: the same wall-clock hour; days of a longer calendar unit past the period's end: the last bucket).",
      resolve: (p) => toCompared(p.value),
    }),
  }),
});

export const SiteTimeseriesRef = builder.objectRef<SiteTimeseries>('SiteTimeseries').implement({
  description: 'One analytics metric per hour, day, week or month, with the period total.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (s) => s.period }),
    metric: t.exposeString('metric', { description: 'The analytics metric (its unit: the catalogue, or metadata for custom ones).' }),
    interval: t.field({ type: IntervalRef, description: 'The bucket size.', resolve: (s) => s.interval }),
    points: t.field({ type: [SiteTimeseriesPointRef], description: 'Every bucket of the period (0 when empty).', resolve: (s) => s.points }),
    total: t.field({ type: ComparedNumberRef, description: "The whole period, from the provider (users and rates do not add up over buckets), in the metric's unit.", resolve: (s) => toCompared(s.total) }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

/** A breakdown row with what its metric fields need: the metric names in response order. */
interface BreakdownRow {
  value: string;
  country: Country | null;
  figures: NamedFigure[];
}

const BreakdownRowRef = builder.objectRef<BreakdownRow>('BreakdownRow').implement({
  description: 'One value of the dimension and its metrics.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The dimension value (countries by their English name, as analytics reports them).' }),
    country: t.field({ type: CountryRef, nullable: true, description: 'dimension country or countryId: the country’s ISO codes and name; null for other dimensions and `(not set)`.', resolve: (r) => r.country }),
    metrics: t.field({ type: [MetricValueRef], description: 'The requested metrics in request order.', resolve: (r) => r.figures }),
    metric: t.field({
      type: ComparedNumberRef,
      description: "One of the requested metrics by name, in its unit; naming a metric not in `metrics` is an error of the breakdown (invalid_parameter, param metrics).",
      args: { name: t.arg.string({ required: true, description: 'A metric name among the breakdown’s `metrics`.' }) },
      resolve: (r, { name }) => {
        const figure = r.figures.find((f) => f.name === name)?.figure;
        if (figure) return figure;
        throw invalidParameter('metrics', `metric(name: ${quoteInput(name)}) is not among the breakdown's metrics (${r.figures.map((f) => f.name).join(', ')}); add it to metrics.`);
      },
    }),
  }),
});

export const SiteBreakdownRef = builder.objectRef<SiteBreakdown>('SiteBreakdown').implement({
  description: 'Analytics metrics by one dimension, a page of rows at a time.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (s) => s.period }),
    dimension: t.exposeString('dimension', { description: 'The dimension broken down by.' }),
    metrics: t.exposeStringList('metrics', { description: 'The metrics of every row, in order.' }),
    rows: t.field({
      type: [BreakdownRowRef],
      description: 'A page of rows, ordered as asked.',
      resolve: (s) =>
        s.rows.map((row) => {
          const value = String(row[s.dimension]);
          return { value, country: countryOfValue(s.dimension, value), figures: namedFigures(row, s.metrics) };
        }),
    }),
    totalRows: t.exposeInt('totalRows', { description: 'Rows in all pages: a count.' }),
    limit: t.exposeInt('limit', { description: 'Rows per page.' }),
    offset: t.exposeInt('offset', { description: 'Rows skipped before this page.' }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

type Realtime = SiteRealtime;
const ACTIVE = metricText('activeUsers', 'Active in the last 30 minutes.');
const ActiveMinuteRef = builder.objectRef<Realtime['perMinute'][number]>('ActiveMinute').implement({
  description: 'One minute of the last 30.',
  fields: (t) => ({ minutesAgo: t.exposeInt('minutesAgo', { description: '0 (this minute) to 29.' }), activeUsers: t.exposeInt('activeUsers', metricText('activeUsers', 'Active that minute.')) }),
});
const ActivePageRef = builder.objectRef<Realtime['topPages'][number]>('ActivePage').implement({
  description: 'A page viewed in the last 30 minutes.',
  fields: (t) => ({ page: t.exposeString('page', { description: 'The page title.' }), activeUsers: t.exposeInt('activeUsers', ACTIVE), screenPageViews: t.exposeInt('screenPageViews', metricText('screenPageViews')) }),
});
const ActiveCountryRef = builder.objectRef<Realtime['countries'][number]>('ActiveCountry').implement({
  description: 'A country with users active in the last 30 minutes.',
  fields: (t) => ({
    country: t.exposeString('country', { description: 'The country name, as analytics reports it.' }),
    countryCode: t.string({ nullable: true, description: 'ISO 3166-1 alpha-2 of the country; null for `(not set)`.', resolve: (c) => countryOfValue('country', c.country)?.alpha2 ?? null }),
    activeUsers: t.exposeInt('activeUsers', ACTIVE),
  }),
});
const ActiveDeviceRef = builder.objectRef<Realtime['devices'][number]>('ActiveDevice').implement({
  description: 'A device category with users active in the last 30 minutes.',
  fields: (t) => ({ device: t.exposeString('device', { description: 'desktop, mobile, tablet, …' }), activeUsers: t.exposeInt('activeUsers', ACTIVE) }),
});
const ActiveEventRef = builder.objectRef<Realtime['topEvents'][number]>('ActiveEvent').implement({
  description: 'An event recorded in the last 30 minutes.',
  fields: (t) => ({ eventName: t.exposeString('eventName', { description: 'The event name.' }), eventCount: t.exposeInt('eventCount', metricText('eventCount')) }),
});

export const SiteRealtimeRef = builder.objectRef<SiteRealtime>('SiteRealtime').implement({
  description: 'Activity of the last 30 minutes (cached at most 30 seconds).',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    activeUsers: t.exposeInt('activeUsers', ACTIVE),
    perMinute: t.field({ type: [ActiveMinuteRef], description: 'Active users per minute.', resolve: (s) => s.perMinute }),
    topPages: t.field({ type: [ActivePageRef], description: 'The most viewed pages.', resolve: (s) => s.topPages }),
    countries: t.field({ type: [ActiveCountryRef], description: 'Countries by active users.', resolve: (s) => s.countries }),
    devices: t.field({ type: [ActiveDeviceRef], description: 'Device categories by active users.', resolve: (s) => s.devices }),
    topEvents: t.field({ type: [ActiveEventRef], description: 'The most frequent events.', resolve: (s) => s.topEvents }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

builder.queryField('siteTimeseries', (t) =>
  t.field({
    type: SiteTimeseriesRef,
    nullable: true,
    ...INTERNAL,
    description: 'One analytics metric over time.',
    args: contractArgs(t.arg, ['project'], ['metric', 'period', 'interval', 'compare', 'force']),
    resolve: (_root, args, ctx) => siteTimeseries(ctx, args),
  }),
);

builder.queryField('siteBreakdown', (t) =>
  t.field({
    type: SiteBreakdownRef,
    nullable: true,
    ...INTERNAL,
    description: 'Analytics metrics broken down by one dimension.',
    args: contractArgs(t.arg, ['project'], ['dimension', 'period', 'metrics', 'limit', 'offset', 'order', 'filter', 'compare', 'force']),
    resolve: (_root, args, ctx) => siteBreakdown(ctx, args),
  }),
);

builder.queryField('realtime', (t) =>
  t.field({ type: SiteRealtimeRef, nullable: true, ...INTERNAL, description: 'Activity of the last 30 minutes.', args: contractArgs(t.arg, ['project']), resolve: (_root, args, ctx) => siteRealtime(ctx, args) }),
);
