// SearchBreakdown: the `searchBreakdown` query field (REST /metrics/{projectKey}/search/dimension, MCP get_search_breakdown).
import { searchBreakdown, type SearchBreakdown } from '../../reports/search-breakdown.ts';
import type { SearchFigures } from '../../reports/search-sources.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';
import { SearchFiguresByProviderRef } from './search-figures.ts';

interface SearchRow extends SearchFigures {
  value: string;
  byProvider: Partial<Record<string, SearchFigures>>;
}

const SearchRowRef = builder.objectRef<SearchRow>('SearchRow').implement({
  description: 'One value of the dimension, combined across engines.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The dimension value, normalised (the key rows were combined on).' }),
    clicks: t.exposeFloat('clicks'),
    impressions: t.exposeFloat('impressions'),
    ctr: t.exposeFloat('ctr'),
    position: t.float({ nullable: true, resolve: (r) => r.position }),
    byProvider: t.field({ type: SearchFiguresByProviderRef, resolve: (r) => r.byProvider }),
  }),
});

export const SearchBreakdownRef = builder.objectRef<SearchBreakdown>('SearchBreakdown').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    sp: t.exposeString('sp'),
    dimension: t.exposeString('dimension', { description: 'query, page, country, device or date.' }),
    rows: t.field({
      type: [SearchRowRef],
      resolve: (s) => s.rows.map((row) => ({ ...(row as unknown as SearchRow), value: String(row[s.dimension]) })),
    }),
    totalRows: t.exposeInt('totalRows'),
    limit: t.exposeInt('limit'),
    offset: t.exposeInt('offset'),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

builder.queryField('searchBreakdown', (t) =>
  t.field({
    type: SearchBreakdownRef,
    description: 'Search data broken down by query, page, country, device or date, combined across engines.',
    args: contractArgs(t.arg, ['project'], ['dimension', 'period', 'sp', 'limit', 'offset', 'order', 'filter', 'force']),
    resolve: (_root, args, ctx) => searchBreakdown(ctx, args),
  }),
);
