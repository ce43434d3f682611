// Project's report fields: the graph's entry for internal tools. Each takes the arguments of its REST endpoint,
// typed (./typed-args.ts), and calls the same report, so rules and errors are those of REST. A report field is
// nullable: it can fail alone (a provider down, a bad argument), with its error in `errors[]` next to the others.
import { landingPages } from '../../reports/landing-pages.ts';
import { searchBreakdown } from '../../reports/search-breakdown.ts';
import { searchSummary } from '../../reports/search-summary.ts';
import { searchTimeseries } from '../../reports/search-timeseries.ts';
import { siteBreakdown } from '../../reports/site-breakdown.ts';
import { siteMetadata } from '../../reports/site-metadata.ts';
import { siteRealtime } from '../../reports/site-realtime.ts';
import { siteTimeseries } from '../../reports/site-timeseries.ts';
import { builder } from '../builder.ts';
import { LandingPagesRef } from './landing-pages.ts';
import { ProjectRef } from './project.ts';
import { SearchBreakdownRef } from './search-breakdown.ts';
import { SearchSummaryRef } from './search-summary.ts';
import { SearchTimeseriesRef } from './search-timeseries.ts';
import { SiteMetadataRef } from './site-metadata.ts';
import { SiteBreakdownRef, SiteRealtimeRef, SiteTimeseriesRef } from './site-metrics.ts';
import { askedSummary, SiteSummaryRef } from './site-summary.ts';
import { report, typed } from './typed-args.ts';

builder.objectFields(ProjectRef, (t) => ({
  summary: t.field({
    type: SiteSummaryRef,
    nullable: true,
    description: 'Headline analytics metrics of a period, compared with the previous period by default.',
    args: { period: typed.period(t.arg), compare: typed.compare(t.arg), force: typed.force(t.arg) },
    resolve: report(askedSummary),
  }),
  timeseries: t.field({
    type: SiteTimeseriesRef,
    nullable: true,
    description: 'One analytics metric over time.',
    args: { metric: typed.metric(t.arg), period: typed.period(t.arg), interval: typed.interval(t.arg), compare: typed.compare(t.arg), force: typed.force(t.arg) },
    resolve: report(siteTimeseries),
  }),
  breakdown: t.field({
    type: SiteBreakdownRef,
    nullable: true,
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
  realtime: t.field({ type: SiteRealtimeRef, nullable: true, description: 'Activity of the last 30 minutes.', resolve: report(siteRealtime) }),
  metadata: t.field({ type: SiteMetadataRef, nullable: true, description: 'Metrics and dimensions the project accepts.', resolve: report(siteMetadata) }),
  search: t.field({
    type: SearchSummaryRef,
    nullable: true,
    description: 'Search clicks, impressions, CTR and position, per engine and combined, compared with the previous period by default.',
    args: { period: typed.period(t.arg), sp: typed.sp(t.arg), compare: typed.compare(t.arg), force: typed.force(t.arg) },
    resolve: report(searchSummary),
  }),
  searchTimeseries: t.field({
    type: SearchTimeseriesRef,
    nullable: true,
    description: 'Search clicks, impressions, CTR and position per hour, day, week or month.',
    args: { period: typed.period(t.arg), sp: typed.sp(t.arg), interval: typed.interval(t.arg), force: typed.force(t.arg) },
    resolve: report(searchTimeseries),
  }),
  searchBreakdown: t.field({
    type: SearchBreakdownRef,
    nullable: true,
    description: 'Search data by query, page, country, device or date, combined across engines.',
    args: {
      dimension: typed.searchDimension(t.arg),
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
    nullable: true,
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
