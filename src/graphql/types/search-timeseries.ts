// SearchTimeseries: the `searchTimeseries` query field (REST /metrics/{projectKey}/search/timeseries, MCP get_search_timeseries).
import { searchTimeseries, type SearchTimeseries } from '../../reports/search-timeseries.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';

const SearchTimeseriesRef = builder.objectRef<SearchTimeseries>('SearchTimeseries').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    sp: t.exposeString('sp'),
    interval: t.exposeString('interval', { description: 'hour, day, week or month.' }),
    points: t.field({
      type: 'JSON',
      description: '[{date (or time for hours), clicks, impressions, ctr, position, byProvider (sp=all)}], every bucket of the period.',
      resolve: (s) => s.points,
    }),
    totals: t.field({ type: 'JSON', description: 'The whole period: clicks, impressions, ctr, position.', resolve: (s) => s.totals }),
    byProvider: t.field({ type: 'JSON', nullable: true, description: 'Period totals per engine (sp=all).', resolve: (s) => s.byProvider ?? null }),
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
