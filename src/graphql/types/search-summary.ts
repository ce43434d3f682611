// SearchSummary: the `searchSummary` query field (REST /metrics/{projectKey}/search/summary, MCP get_search_summary).
import { SEARCH_PROVIDERS } from '../../contract/words.ts';
import type { Compared } from '../../domain/compare.ts';
import { searchSummary, type SearchSummary } from '../../reports/search-summary.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ComparedNumberRef, toCompared, toComparedOrNull } from './compared-number.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { SearchProviderRef, wordOf } from './enums.ts';
import { ComparedSearchFiguresByProviderRef, ComparedSearchFiguresRef, SEARCH_FIGURE_TEXT } from './search-figures.ts';

export const SearchSummaryRef = builder.objectRef<SearchSummary>('SearchSummary').implement({
  description: 'Search totals of a period, combined over the engines `sp` selects and per engine.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (s) => s.period }),
    sp: t.field({ type: SearchProviderRef, description: 'The engines combined (aliases answered canonically).', resolve: (s) => wordOf(SEARCH_PROVIDERS, s.sp) }),
    totals: t.field({ type: ComparedSearchFiguresRef, description: 'Combined over the engines `sp` selects.', resolve: (s) => s.totals }),
    clicks: t.field({ type: ComparedNumberRef, ...SEARCH_FIGURE_TEXT.clicks, resolve: (s) => toCompared(s.totals.clicks as number | Compared) }),
    impressions: t.field({ type: ComparedNumberRef, ...SEARCH_FIGURE_TEXT.impressions, resolve: (s) => toCompared(s.totals.impressions as number | Compared) }),
    ctr: t.field({ type: ComparedNumberRef, ...SEARCH_FIGURE_TEXT.ctr, resolve: (s) => toCompared(s.totals.ctr as number | Compared) }),
    position: t.field({ type: ComparedNumberRef, nullable: true, ...SEARCH_FIGURE_TEXT.position, resolve: (s) => toComparedOrNull(s.totals.position) }),
    byProvider: t.field({ type: ComparedSearchFiguresByProviderRef, description: 'The same figures per engine (engine1, engine2).', resolve: (s) => s.byProvider }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

builder.queryField('searchSummary', (t) =>
  t.field({
    type: SearchSummaryRef,
    nullable: true,
    ...INTERNAL,
    description: 'Search clicks, impressions, CTR and position of a period, per engine and combined, compared with the previous period by default.',
    args: contractArgs(t.arg, ['project'], ['period', 'sp', 'compare', 'force']),
    resolve: (_root, args, ctx) => searchSummary(ctx, args),
  }),
);
