// Search figures: clicks, impressions, CTR and position, plain (timeseries, breakdown rows) or compared
// (summary), each with the same figures per engine under `byProvider`.
import type { Compared } from '../../domain/compare.ts';
import type { SearchSource } from '../../domain/sources.ts';
import type { FiguresJson, SearchFigures } from '../../reports/search-sources.ts';
import { builder } from '../builder.ts';
import { ComparedNumberRef, toCompared, toComparedOrNull } from './compared-number.ts';

type ByProvider<T> = Readonly<Partial<Record<SearchSource, T>>>;

const describe = {
  clicks: 'Clicks from search results.',
  impressions: 'Times a page appeared in search results.',
  ctr: 'clicks / impressions, a fraction (0 without impressions).',
  position: 'Average position, 1-based; null when no engine reported one.',
};

export const SearchFiguresRef = builder.objectRef<SearchFigures>('SearchFigures').implement({
  fields: (t) => ({
    clicks: t.exposeFloat('clicks', { description: describe.clicks }),
    impressions: t.exposeFloat('impressions', { description: describe.impressions }),
    ctr: t.exposeFloat('ctr', { description: describe.ctr }),
    position: t.float({ nullable: true, description: describe.position, resolve: (f) => f.position }),
  }),
});

export const SearchFiguresByProviderRef = builder.objectRef<ByProvider<SearchFigures>>('SearchFiguresByProvider').implement({
  description: 'The same figures per engine; an engine not connected or not asked for is null.',
  fields: (t) => ({
    engine1: t.field({ type: SearchFiguresRef, nullable: true, resolve: (b) => b.engine1 ?? null }),
    engine2: t.field({ type: SearchFiguresRef, nullable: true, resolve: (b) => b.engine2 ?? null }),
  }),
});

export const ComparedSearchFiguresRef = builder.objectRef<FiguresJson>('ComparedSearchFigures').implement({
  fields: (t) => ({
    clicks: t.field({ type: ComparedNumberRef, description: describe.clicks, resolve: (f) => toCompared(f.clicks as number | Compared) }),
    impressions: t.field({ type: ComparedNumberRef, description: describe.impressions, resolve: (f) => toCompared(f.impressions as number | Compared) }),
    ctr: t.field({ type: ComparedNumberRef, description: describe.ctr, resolve: (f) => toCompared(f.ctr as number | Compared) }),
    position: t.field({ type: ComparedNumberRef, nullable: true, description: describe.position, resolve: (f) => toComparedOrNull(f.position) }),
  }),
});

export const ComparedSearchFiguresByProviderRef = builder.objectRef<ByProvider<FiguresJson>>('ComparedSearchFiguresByProvider').implement({
  description: 'The same figures per engine; an engine not connected or not asked for is null.',
  fields: (t) => ({
    engine1: t.field({ type: ComparedSearchFiguresRef, nullable: true, resolve: (b) => b.engine1 ?? null }),
    engine2: t.field({ type: ComparedSearchFiguresRef, nullable: true, resolve: (b) => b.engine2 ?? null }),
  }),
});
