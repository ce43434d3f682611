// Project's data fields: the graph's entry for internal tools. Each field takes the arguments of its REST endpoint,
// typed (Period scalar, enums, Int, lists), turns them back into the strings the report pipelines parse, and calls
// the same report, so rules and errors are those of REST.
import { PARAMETERS } from '../../contract/parameters.ts';
import { landingPages } from '../../reports/landing-pages.ts';
import { searchBreakdown } from '../../reports/search-breakdown.ts';
import { searchSummary } from '../../reports/search-summary.ts';
import { searchTimeseries } from '../../reports/search-timeseries.ts';
import { siteBreakdown } from '../../reports/site-breakdown.ts';
import { siteMetadata } from '../../reports/site-metadata.ts';
import { siteRealtime } from '../../reports/site-realtime.ts';
import { siteTimeseries } from '../../reports/site-timeseries.ts';
import type { ProjectRecord } from '../../store/projects-repository.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { CompareModeRef, IntervalRef, SearchProviderRef } from './enums.ts';
import { LandingPagesRef } from './landing-pages.ts';
import { ProjectRef } from './project.ts';
import { SearchBreakdownRef } from './search-breakdown.ts';
import { SearchSummaryRef } from './search-summary.ts';
import { SearchTimeseriesRef } from './search-timeseries.ts';
import { SiteBreakdownRef, SiteMetadataRef, SiteRealtimeRef, SiteTimeseriesRef } from './site-metrics.ts';
import { askedSummary, SiteSummaryRef } from './site-summary.ts';

type TypedArgs = Record<string, string | number | boolean | readonly string[] | null | undefined>;

/** The report pipelines' argument strings from typed GraphQL arguments, with the project's key. */
export function reportArgs(project: ProjectRecord, args: TypedArgs): { project: string } & Record<string, string> {
  const out: { project: string } & Record<string, string> = { project: project.key };
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'boolean') out[name] = value ? '1' : '0';
    else if (Array.isArray(value)) out[name] = value.join(',');
    else out[name] = String(value);
  }
  return out;
}

type FieldBuilder = Parameters<Parameters<typeof builder.objectField<typeof ProjectRef>>[2]>[0];
type ArgBuilder = FieldBuilder['arg'];

const describe = (name: keyof typeof PARAMETERS) => ({ description: PARAMETERS[name].description });

/** Typed arguments named as the contract names them; each described from the parameter catalogue. */
const typed = {
  period: (arg: ArgBuilder) => arg({ type: 'Period', ...describe('period') }),
  compare: (arg: ArgBuilder) => arg({ type: CompareModeRef, ...describe('compare') }),
  sp: (arg: ArgBuilder) => arg({ type: SearchProviderRef, ...describe('sp') }),
  interval: (arg: ArgBuilder) => arg({ type: IntervalRef, ...describe('interval') }),
  force: (arg: ArgBuilder) => arg.boolean({ description: 'true bypasses the cache and refreshes it (limited to 30/hour per project).' }),
  metric: (arg: ArgBuilder) => arg.string(describe('metric')),
  metrics: (arg: ArgBuilder) => arg.stringList({ description: 'Analytics metrics (at most 10). Default: activeUsers, sessions, screenPageViews.' }),
  dimension: (arg: ArgBuilder) => arg.string({ required: true, ...describe('dimension') }),
  filter: (arg: ArgBuilder) => arg.string(describe('filter')),
  order: (arg: ArgBuilder) => arg.string(describe('order')),
  limit: (arg: ArgBuilder) => arg.int(describe('limit')),
  offset: (arg: ArgBuilder) => arg.int(describe('offset')),
};

const report = <A extends TypedArgs, T>(run: (ctx: GraphQLContext, args: ReturnType<typeof reportArgs>) => Promise<T>) =>
  (project: ProjectRecord, args: A, ctx: GraphQLContext): Promise<T> => run(ctx, reportArgs(project, args));

builder.objectFields(ProjectRef, (t) => ({
  summary: t.field({
    type: SiteSummaryRef,
    description: 'Headline analytics metrics of a period, compared with the previous period by default.',
    args: { period: typed.period(t.arg), compare: typed.compare(t.arg), force: typed.force(t.arg) },
    resolve: report(askedSummary),
  }),
  timeseries: t.field({
    type: SiteTimeseriesRef,
    description: 'One analytics metric over time.',
    args: { metric: typed.metric(t.arg), period: typed.period(t.arg), interval: typed.interval(t.arg), compare: typed.compare(t.arg), force: typed.force(t.arg) },
    resolve: report(siteTimeseries),
  }),
  breakdown: t.field({
    type: SiteBreakdownRef,
    description: 'Analytics metrics broken down by one dimension.',
    args: {
      dimension: typed.dimension(t.arg),
      metrics: typed.metrics(t.arg),
      period: typed.period(t.arg),
      filter: typed.filter(t.arg),
      order: typed.order(t.arg),
      limit: typed.limit(t.arg),
      offset: typed.offset(t.arg),
      compare: typed.compare(t.arg),
      force: typed.force(t.arg),
    },
    resolve: report(siteBreakdown),
  }),
  realtime: t.field({ type: SiteRealtimeRef, description: 'Activity of the last 30 minutes.', resolve: report(siteRealtime) }),
  metadata: t.field({ type: SiteMetadataRef, description: 'Metrics and dimensions the project accepts.', resolve: report(siteMetadata) }),
  search: t.field({
    type: SearchSummaryRef,
    description: 'Search clicks, impressions, CTR and position, per engine and combined, compared with the previous period by default.',
    args: { period: typed.period(t.arg), sp: typed.sp(t.arg), compare: typed.compare(t.arg), force: typed.force(t.arg) },
    resolve: report(searchSummary),
  }),
  searchTimeseries: t.field({
    type: SearchTimeseriesRef,
    description: 'Search clicks, impressions, CTR and position per hour, day, week or month.',
    args: { period: typed.period(t.arg), sp: typed.sp(t.arg), interval: typed.interval(t.arg), force: typed.force(t.arg) },
    resolve: report(searchTimeseries),
  }),
  searchBreakdown: t.field({
    type: SearchBreakdownRef,
    description: 'Search data by query, page, country, device or date, combined across engines.',
    args: {
      dimension: typed.dimension(t.arg),
      period: typed.period(t.arg),
      sp: typed.sp(t.arg),
      filter: typed.filter(t.arg),
      order: typed.order(t.arg),
      limit: typed.limit(t.arg),
      offset: typed.offset(t.arg),
      force: typed.force(t.arg),
    },
    resolve: report(searchBreakdown),
  }),
  landingPages: t.field({
    type: LandingPagesRef,
    description: 'Analytics landing pages joined with search pages on the normalised URL.',
    args: {
      period: typed.period(t.arg),
      sp: typed.sp(t.arg),
      filter: typed.filter(t.arg),
      order: typed.order(t.arg),
      limit: typed.limit(t.arg),
      offset: typed.offset(t.arg),
      force: typed.force(t.arg),
    },
    resolve: report(landingPages),
  }),
}));
