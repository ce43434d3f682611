// Enums of the typed graph: the closed parameter sets (sp, compare, interval) as arguments of Project's fields,
// and the cache state of `meta`. Argument values map to the words the report pipelines parse; descriptions come
// from the parameter catalogue.
import { PARAMETERS } from '../../contract/parameters.ts';
import { builder } from '../builder.ts';

export const SearchProviderRef = builder.enumType('SearchProvider', {
  description: PARAMETERS.sp.description,
  values: {
    ALL: { value: 'all', description: 'Both engines, combined.' },
    ENGINE1: { value: 'engine1' },
    ENGINE2: { value: 'engine2' },
  } as const,
});

export const CompareModeRef = builder.enumType('CompareMode', {
  description: PARAMETERS.compare.description,
  values: { PREVIOUS: { value: 'previous' }, YEAR: { value: 'year' }, NONE: { value: 'none' } } as const,
});

export const IntervalRef = builder.enumType('Interval', {
  description: PARAMETERS.interval.description,
  values: { HOUR: { value: 'hour' }, DAY: { value: 'day' }, WEEK: { value: 'week' }, MONTH: { value: 'month' } } as const,
});

/** Lower-case values: `meta.cache` is the same word in REST, MCP and GraphQL. */
export const CacheStateRef = builder.enumType('CacheState', {
  description: 'Where the answer came from: hit (fresh cache), miss (provider), stale (cache, refreshing) or refresh (forced).',
  values: ['hit', 'miss', 'stale', 'refresh'] as const,
});
