// SearchSummary: the `searchSummary` query field (REST /metrics/{projectKey}/search/summary, MCP get_search_summary).
import { searchSummary, type SearchSummary } from '../../reports/search-summary.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';

const SearchSummaryRef = builder.objectRef<SearchSummary>('SearchSummary').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    sp: t.exposeString('sp', { description: 'all, engine1 or engine2 (aliases resolved).' }),
    totals: t.field({
      type: 'JSON',
      description: 'clicks, impressions, ctr, position combined over the engines; each {value, previous, delta, deltaPct} when comparing.',
      resolve: (s) => s.totals,
    }),
    byProvider: t.field({ type: 'JSON', description: 'The same figures per engine (engine1, engine2).', resolve: (s) => s.byProvider }),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

builder.queryField('searchSummary', (t) =>
  t.field({
    type: SearchSummaryRef,
    description: 'Search clicks, impressions, CTR and position of a period, per engine and combined, compared with the previous period by default.',
    args: contractArgs(t.arg, ['project'], ['period', 'sp', 'compare', 'force']),
    resolve: (_root, args, ctx) => searchSummary(ctx, args),
  }),
);
