// Search figures: clicks, impressions, CTR and position, plain (timeseries, breakdown rows) or compared
// (summary), each with the same figures per engine under `byProvider`.
import type { Compared } from '../../domain/compare.ts';
import type { SearchSource } from '../../domain/sources.ts';
import type { FiguresJson, SearchFigures } from '../../reports/search-sources.ts';
import { builder } from '../builder.ts';
import { ComparedNumberRef, toCompared, toComparedOrNull } from './compared-number.ts';
import { metricText } from './metric-fields.ts';

type ByProvider<T> = Readonly<Partial<Record<SearchSource, T>>>;

/** Field descriptions of the four figures, from the catalogue. */
export const SEARCH_FIGURE_TEXT = {
  clicks: metricText('clicks', 'Clicks from search results.'),
  impressions: metricText('impressions', 'Times a page appeared in search results.'),
  ctr: metricText('ctr', 'clicks / impressions (0 without impressions).'),
  position: metricText('position', 'Null when no engine reported one (no impressions).'),
} as const;

export const SearchFiguresRef = builder.objectRef<SearchFigures>('SearchFigures').implement({
  description: 'Clicks, impressions, CTR and position over a range.',
  fields: (t) => ({
    clicks: t.exposeInt('clicks', SEARCH_FIGURE_TEXT.clicks),
    impressions: t.exposeInt('impressions', SEARCH_FIGURE_TEXT.impressions),
    ctr: t.exposeFloat('ctr', SEARCH_FIGURE_TEXT.ctr),
    position: t.float({ nullable: true, ...SEARCH_FIGURE_TEXT.position, resolve: (f) => f.position }),
  }),
});

const ENGINE_TEXT = (engine: string) => ({ description: `${engine}'s figures; null when it is not connected, not asked for (sp) or does not serve this.` });

export const SearchFiguresByProviderRef = builder.objectRef<ByProvider<SearchFigures>>('SearchFiguresByProvider').implement({
  description: 'The same figures per engine; an engine not connected or not asked for is null.',
  fields: (t) => ({
    engine1: t.field({ type: SearchFiguresRef, nullable: true, ...ENGINE_TEXT('engine1'), resolve: (b) => b.engine1 ?? null }),
    engine2: t.field({ type: SearchFiguresRef, nullable: true, ...ENGINE_TEXT('engine2'), resolve: (b) => b.engine2 ?? null }),
  }),
});

export const ComparedSearchFiguresRef = builder.objectRef<FiguresJson>('ComparedSearchFigures').implement({
  description: 'Clicks, impressions, CTR and position, each with its value in the comparison range when comparing.',
  fields: (t) => ({
    clicks: t.field({ type: ComparedNumberRef, ...SEARCH_FIGURE_TEXT.clicks, resolve: (f) => toCompared(f.clicks as number | Compared) }),
    impressions: t.field({ type: ComparedNumberRef, ...SEARCH_FIGURE_TEXT.impressions, resolve: (f) => toCompared(f.impressions as number | Compared) }),
    ctr: t.field({ type: ComparedNumberRef, ...SEARCH_FIGURE_TEXT.ctr, resolve: (f) => toCompared(f.ctr as number | Compared) }),
    position: t.field({ type: ComparedNumberRef, nullable: true, ...SEARCH_FIGURE_TEXT.position, resolve: (f) => toComparedOrNull(f.position) }),
  }),
});

export const ComparedSearchFiguresByProviderRef = builder.objectRef<ByProvider<FiguresJson>>('ComparedSearchFiguresByProvider').implement({
  description: 'The same figures per engine; an engine not connected or not asked for is null.',
  fields: (t) => ({
    engine1: t.field({ type: ComparedSearchFiguresRef, nullable: true, ...ENGINE_TEXT('engine1'), resolve: (b) => b.engine1 ?? null }),
    engine2: t.field({ type: ComparedSearchFiguresRef, nullable: true, ...ENGINE_TEXT('engine2'), resolve: (b) => b.engine2 ?? null }),
  }),
});
