// SearchBreakdown: the `searchBreakdown` query field (REST /metrics/{projectKey}/search/dimension, MCP get_search_breakdown).
import { searchBreakdown, type SearchBreakdown } from '../../reports/search-breakdown.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';

const SearchBreakdownRef = builder.objectRef<SearchBreakdown>('SearchBreakdown').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    sp: t.exposeString('sp'),
    dimension: t.exposeString('dimension', { description: 'query, page, country, device or date.' }),
    rows: t.field({
      type: 'JSON',
      description: '[{<dimension>: value, clicks, impressions, ctr, position, byProvider}], values normalised (the key rows were combined on).',
      resolve: (s) => s.rows,
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
