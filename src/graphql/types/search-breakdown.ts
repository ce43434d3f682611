// SearchBreakdown: the `searchBreakdown` query field (REST /metrics/{projectKey}/search/dimension, MCP get_search_breakdown).
import { SEARCH_PROVIDERS } from '../../contract/words.ts';
import type { Country } from '../../domain/countries.ts';
import { searchBreakdown, type SearchBreakdown } from '../../reports/search-breakdown.ts';
import type { SearchFigures } from '../../reports/search-sources.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { countryOfValue, CountryRef } from './country.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { SearchDimensionRef, SearchProviderRef, wordOf } from './enums.ts';
import { SEARCH_FIGURE_TEXT, SearchFiguresByProviderRef } from './search-figures.ts';

interface SearchRow extends SearchFigures {
  value: string;
  country: Country | null;
  byProvider: Partial<Record<string, SearchFigures>>;
}

const SearchRowRef = builder.objectRef<SearchRow>('SearchRow').implement({
  description: 'One value of the dimension, combined across engines.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The dimension value, normalised (the key rows were combined on; countries as ISO alpha-3 in lower case).' }),
    country: t.field({ type: CountryRef, nullable: true, description: 'dimension country: the country’s ISO codes and name; null for other dimensions and unknown values.', resolve: (r) => r.country }),
    clicks: t.exposeInt('clicks', SEARCH_FIGURE_TEXT.clicks),
    impressions: t.exposeInt('impressions', SEARCH_FIGURE_TEXT.impressions),
    ctr: t.exposeFloat('ctr', SEARCH_FIGURE_TEXT.ctr),
    position: t.float({ nullable: true, ...SEARCH_FIGURE_TEXT.position, resolve: (r) => r.position }),
    byProvider: t.field({ type: SearchFiguresByProviderRef, description: 'The same figures per engine.', resolve: (r) => r.byProvider }),
  }),
});

export const SearchBreakdownRef = builder.objectRef<SearchBreakdown>('SearchBreakdown').implement({
  description: 'Search figures by one dimension, combined across engines.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (s) => s.period }),
    sp: t.field({ type: SearchProviderRef, description: 'The engines combined.', resolve: (s) => wordOf(SEARCH_PROVIDERS, s.sp) }),
    dimension: t.field({ type: SearchDimensionRef, description: 'The dimension broken down by.', resolve: (s) => s.dimension }),
    rows: t.field({
      type: [SearchRowRef],
      description: 'A page of rows, ordered as asked.',
      resolve: (s) =>
        s.rows.map((row) => {
          const value = String(row[s.dimension]);
          return { ...(row as unknown as SearchRow), value, country: countryOfValue(s.dimension, value) };
        }),
    }),
    totalRows: t.exposeInt('totalRows', { description: 'Rows in all pages: a count.' }),
    limit: t.exposeInt('limit', { description: 'Rows per page.' }),
    offset: t.exposeInt('offset', { description: 'Rows skipped before this page.' }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

builder.queryField('searchBreakdown', (t) =>
  t.field({
    type: SearchBreakdownRef,
    nullable: true,
    ...INTERNAL,
    description: 'Search data broken down by query, page, country, device or date, combined across engines.',
    args: contractArgs(t.arg, ['project'], ['dimension', 'period', 'sp', 'limit', 'offset', 'order', 'filter', 'force']),
    resolve: (_root, args, ctx) => searchBreakdown(ctx, args),
  }),
);
