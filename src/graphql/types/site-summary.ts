// SiteSummary: the `siteSummary` query field (REST /metrics/{projectKey}/summary, MCP get_site_summary).
import { siteSummary, type SiteSummary } from '../../reports/site-summary.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';

const SiteSummaryRef = builder.objectRef<SiteSummary>('SiteSummary').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    metrics: t.field({ type: 'JSON', description: 'metric name → value, or {value, previous, delta, deltaPct} when compared.', resolve: (s) => s.metrics }),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

builder.queryField('siteSummary', (t) =>
  t.field({
    type: SiteSummaryRef,
    description: 'Headline analytics metrics of a period, compared with the previous period by default.',
    args: contractArgs(t.arg, ['project'], ['period', 'compare', 'force']),
    resolve: (_root, args, ctx) => siteSummary(ctx, args),
  }),
);
