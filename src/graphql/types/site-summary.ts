// SiteSummary: the `siteSummary` query field (REST /metrics/{projectKey}/summary, MCP get_site_summary) and
// Project.summary. The standard metrics are typed fields, each described with its unit from the catalogue;
// `metric(name)` reads any metric, custom ones too.
import type { Compared } from '../../domain/compare.ts';
import { SUMMARY_METRICS } from '../../domain/catalogue.ts';
import type { PeriodArgs } from '../../reports/report-context.ts';
import { siteSummary, type SiteSummary } from '../../reports/site-summary.ts';
import { siteTimeseries } from '../../reports/site-timeseries.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ComparedNumberRef, MetricValueRef, namedFigures, toCompared } from './compared-number.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { metricText } from './metric-fields.ts';

/** The summary with the arguments it was asked with, so `metric(name)` can fetch a metric outside the standard set. */
export interface AskedSummary extends SiteSummary {
  asked: PeriodArgs;
}

export async function askedSummary(ctx: Parameters<typeof siteSummary>[0], args: PeriodArgs): Promise<AskedSummary> {
  return { ...(await siteSummary(ctx, args)), asked: args };
}

export const SiteSummaryRef = builder.objectRef<AskedSummary>('SiteSummary').implement({
  description: 'Headline analytics metrics of a period; each compared with the comparison range when comparing.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (s) => s.period }),
    ...Object.fromEntries(SUMMARY_METRICS.map((name) => [name, t.field({ type: ComparedNumberRef, ...metricText(name), resolve: (s) => figureOf(s, name) })])),
    metrics: t.field({
      type: [MetricValueRef],
      description: 'The standard summary metrics in response order.',
      resolve: (s) => namedFigures(s.metrics, Object.keys(s.metrics)),
    }),
    metric: t.field({
      type: ComparedNumberRef,
      nullable: true,
      description: 'Any metric the property has, standard or custom (see metadata), over the same period and comparison, in its own unit; null with an error (an unknown name) in errors[].',
      args: { name: t.arg.string({ required: true, description: 'An analytics metric name.' }) },
      resolve: async (s, { name }, ctx) => {
        if (s.metrics[name] !== undefined) return figureOf(s, name);
        const series = await siteTimeseries(ctx, { ...s.asked, compare: s.asked.compare ?? 'previous', metric: name, interval: 'month' });
        return toCompared(series.total);
      },
    }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

/** A summary always has its standard metrics: one missing is a bug in the report. */
function figureOf(summary: SiteSummary, name: string): Compared {
  const figure = summary.metrics[name];
  if (figure === undefined) throw new Error(`The summary has no ${name}`);
  return toCompared(figure);
}

builder.queryField('siteSummary', (t) =>
  t.field({
    type: SiteSummaryRef,
    nullable: true,
    ...INTERNAL,
    description: 'Headline analytics metrics of a period, compared with the previous period by default.',
    args: contractArgs(t.arg, ['project'], ['period', 'compare', 'force']),
    resolve: (_root, args, ctx) => askedSummary(ctx, args),
  }),
);
