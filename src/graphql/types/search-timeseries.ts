// SearchTimeseries: the `searchTimeseries` query field (REST /metrics/{projectKey}/search/timeseries, MCP get_search_timeseries).
import { SEARCH_PROVIDERS } from '../../contract/words.ts';
import { searchTimeseries, type SearchPoint, type SearchTimeseries } from '../../reports/search-timeseries.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { IntervalRef, SearchProviderRef, wordOf } from './enums.ts';
import { SEARCH_FIGURE_TEXT, SearchFiguresByProviderRef, SearchFiguresRef } from './search-figures.ts';

export const BUCKET_TEXT = {
  date: { description: "The bucket's first day (interval day, week or month); null for hours." },
  time: { description: 'The hour, with the project zone offset of that hour (interval hour); null otherwise.' },
} as const;

const SearchPointRef = builder.objectRef<SearchPoint>('SearchPoint').implement({
  description: 'One bucket of the period.',
  fields: (t) => ({
    date: t.field({ type: 'Date', nullable: true, ...BUCKET_TEXT.date, resolve: (p) => p.date ?? null }),
    time: t.field({ type: 'DateTime', nullable: true, ...BUCKET_TEXT.time, resolve: (p) => p.time ?? null }),
    clicks: t.exposeInt('clicks', SEARCH_FIGURE_TEXT.clicks),
    impressions: t.exposeInt('impressions', SEARCH_FIGURE_TEXT.impressions),
    ctr: t.exposeFloat('ctr', SEARCH_FIGURE_TEXT.ctr),
    position: t.float({ nullable: true, ...SEARCH_FIGURE_TEXT.position, resolve: (p) => p.position }),
    byProvider: t.field({ type: SearchFiguresByProviderRef, nullable: true, description: 'Per engine (sp=all); null for one engine.', resolve: (p) => p.byProvider ?? null }),
  }),
});

export const SearchTimeseriesRef = builder.objectRef<SearchTimeseries>('SearchTimeseries').implement({
  description: 'Search figures per hour, day, week or month.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (s) => s.period }),
    sp: t.field({ type: SearchProviderRef, description: 'The engines combined.', resolve: (s) => wordOf(SEARCH_PROVIDERS, s.sp) }),
    interval: t.field({ type: IntervalRef, description: 'The bucket size.', resolve: (s) => s.interval }),
    points: t.field({ type: [SearchPointRef], description: 'Every bucket of the period.', resolve: (s) => s.points }),
    totals: t.field({ type: SearchFiguresRef, description: 'The whole period.', resolve: (s) => s.totals }),
    byProvider: t.field({ type: SearchFiguresByProviderRef, nullable: true, description: 'Period totals per engine (sp=all); null for one engine.', resolve: (s) => s.byProvider ?? null }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

builder.queryField('searchTimeseries', (t) =>
  t.field({
    type: SearchTimeseriesRef,
    nullable: true,
    ...INTERNAL,
    description: 'Search clicks, impressions, CTR and position per hour, day, week or month.',
    args: contractArgs(t.arg, ['project'], ['period', 'sp', 'interval', 'force']),
    resolve: (_root, args, ctx) => searchTimeseries(ctx, args),
  }),
);
