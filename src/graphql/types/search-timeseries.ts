// SearchTimeseries: the `searchTimeseries` query field (REST /metrics/{projectKey}/search/timeseries, MCP get_search_timeseries).
import { searchTimeseries, type SearchPoint, type SearchTimeseries } from '../../reports/search-timeseries.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';
import { SearchFiguresByProviderRef, SearchFiguresRef } from './search-figures.ts';

const SearchPointRef = builder.objectRef<SearchPoint>('SearchPoint').implement({
  description: 'One bucket of the period.',
  fields: (t) => ({
    date: t.field({ type: 'Date', nullable: true, description: "The bucket's first day (interval day, week or month).", resolve: (p) => p.date ?? null }),
    time: t.string({ nullable: true, description: 'ISO-8601 local hour with offset (interval hour).', resolve: (p) => p.time ?? null }),
    clicks: t.exposeFloat('clicks'),
    impressions: t.exposeFloat('impressions'),
    ctr: t.exposeFloat('ctr'),
    position: t.float({ nullable: true, resolve: (p) => p.position }),
    byProvider: t.field({ type: SearchFiguresByProviderRef, nullable: true, description: 'Per engine (sp=all).', resolve: (p) => p.byProvider ?? null }),
  }),
});

export const SearchTimeseriesRef = builder.objectRef<SearchTimeseries>('SearchTimeseries').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    sp: t.exposeString('sp'),
    interval: t.exposeString('interval', { description: 'hour, day, week or month.' }),
    points: t.field({ type: [SearchPointRef], description: 'Every bucket of the period.', resolve: (s) => s.points }),
    totals: t.field({ type: SearchFiguresRef, description: 'The whole period.', resolve: (s) => s.totals }),
    byProvider: t.field({ type: SearchFiguresByProviderRef, nullable: true, description: 'Period totals per engine (sp=all).', resolve: (s) => s.byProvider ?? null }),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

builder.queryField('searchTimeseries', (t) =>
  t.field({
    type: SearchTimeseriesRef,
    description: 'Search clicks, impressions, CTR and position per hour, day, week or month.',
    args: contractArgs(t.arg, ['project'], ['period', 'sp', 'interval', 'force']),
    resolve: (_root, args, ctx) => searchTimeseries(ctx, args),
  }),
);
