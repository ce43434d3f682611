// SearchSummary: the `searchSummary` query field (REST /metrics/{projectKey}/search/summary, MCP get_search_summary).
import type { Compared } from '../../domain/compare.ts';
import { searchSummary, type SearchSummary } from '../../reports/search-summary.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ComparedNumberRef, toCompared, toComparedOrNull } from './compared-number.ts';
import { MetaRef, PeriodRef } from './envelope.ts';
import { ComparedSearchFiguresByProviderRef, ComparedSearchFiguresRef } from './search-figures.ts';

export const SearchSummaryRef = builder.objectRef<SearchSummary>('SearchSummary').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    sp: t.exposeString('sp', { description: 'all, engine1 or engine2 (aliases resolved).' }),
    totals: t.field({ type: ComparedSearchFiguresRef, description: 'Combined over the engines `sp` selects.', resolve: (s) => s.totals }),
    clicks: t.field({ type: ComparedNumberRef, description: 'totals.clicks', resolve: (s) => toCompared(s.totals.clicks as number | Compared) }),
    impressions: t.field({ type: ComparedNumberRef, description: 'totals.impressions', resolve: (s) => toCompared(s.totals.impressions as number | Compared) }),
    ctr: t.field({ type: ComparedNumberRef, description: 'totals.ctr', resolve: (s) => toCompared(s.totals.ctr as number | Compared) }),
    position: t.field({ type: ComparedNumberRef, nullable: true, description: 'totals.position', resolve: (s) => toComparedOrNull(s.totals.position) }),
    byProvider: t.field({ type: ComparedSearchFiguresByProviderRef, description: 'The same figures per engine (engine1, engine2).', resolve: (s) => s.byProvider }),
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
