// Enums of the typed graph: every closed set of words, as arguments (sp, compare, interval, …) and as answers
// (cache state, anomaly direction, opportunity kind, …). One casing convention: an enum value is the word REST and
// MCP use (`previous`, `engine1`, `low_ctr`, `not_connected`), so a value reads the same on every surface and the
// stored operations' answers are the REST bodies without translation. Lists come from the contract's words
// (src/contract/words.ts) and the domain; descriptions of arguments from the parameter catalogue.
import { PARAMETERS } from '../../contract/parameters.ts';
import {
  allOf,
  ANOMALY_DIRECTIONS,
  ANOMALY_KINDS,
  BRAND_FILTERS,
  CACHE_STATES,
  DATA_SOURCE_STATUSES,
  DRIVER_REASONS,
  FUNNEL_CREATORS,
  FUNNEL_STEP_MATCHES,
  FUNNEL_STEP_TYPES,
  METRIC_KINDS,
  OPPORTUNITY_KINDS,
  SEARCH_PROVIDERS,
} from '../../contract/words.ts';
import type { CacheState } from '../../cache/cached-fetch.ts';
import { SEARCH_DIMENSION_NAMES, SEARCH_METRIC_NAMES } from '../../domain/catalogue.ts';
import { COMPARE_MODES } from '../../domain/compare.ts';
import { INTERVALS } from '../../domain/interval.ts';
import { SOURCES } from '../../domain/sources.ts';
import type { SourceStatus } from '../../store/data-sources-repository.ts';
import type { FunnelCreator, FunnelStep } from '../../store/funnels-repository.ts';
import { builder } from '../builder.ts';

// The store's and the cache's words, checked against the contract's lists (the domain's are checked there).
allOf<CacheState>()(CACHE_STATES);
allOf<SourceStatus>()(DATA_SOURCE_STATUSES);
allOf<FunnelStep['type']>()(FUNNEL_STEP_TYPES);
allOf<FunnelStep['match']>()(FUNNEL_STEP_MATCHES);
allOf<FunnelCreator>()(FUNNEL_CREATORS);

export const SearchProviderRef = builder.enumType('SearchProvider', {
  description: 'Search engines: all (both, combined), engine1 or engine2.',
  values: SEARCH_PROVIDERS,
});

export const CompareModeRef = builder.enumType('CompareMode', { description: PARAMETERS.compare.description, values: COMPARE_MODES });

export const IntervalRef = builder.enumType('Interval', { description: 'A bucket of a time series: hour, day, week (ISO, Monday first) or month.', values: INTERVALS });

export const AnomalyIntervalRef = builder.enumType('AnomalyInterval', {
  description: 'day (default): days against the same weekday of the weeks before; hour: engine1 hours against the same hour of the days before.',
  values: ['day', 'hour'] as const,
});

export const BrandFilterRef = builder.enumType('BrandFilter', { description: PARAMETERS.brand.description, values: BRAND_FILTERS });

export const SearchDimensionRef = builder.enumType('SearchDimension', {
  description: 'A search breakdown dimension: query, page, country (ISO 3166-1 alpha-3, lower case), device (desktop, mobile, tablet) or date. engine2 serves query and page only.',
  values: SEARCH_DIMENSION_NAMES,
});

export const SearchMetricRef = builder.enumType('SearchMetric', { description: 'A search figure: clicks, impressions, ctr or position.', values: SEARCH_METRIC_NAMES });

export const CacheStateRef = builder.enumType('CacheState', {
  description: 'Where the answer came from: hit (fresh cache), miss (provider), stale (cache, refreshing) or refresh (forced).',
  values: CACHE_STATES,
});

export const DataSourceNameRef = builder.enumType('DataSourceName', {
  description: 'A provider, by its neutral word: analytics (Google Analytics 4), engine1 (Google Search Console) or engine2 (Bing Webmaster Tools).',
  values: SOURCES,
});

export const DataSourceStatusRef = builder.enumType('DataSourceStatus', {
  description: 'ok: a call with the stored credential succeeded last; error: the provider refused it (see `message`); pending: connected, but no call with its credential has succeeded yet; not_connected.',
  values: DATA_SOURCE_STATUSES,
});

export const FunnelStepTypeRef = builder.enumType('FunnelStepType', { description: 'What a funnel step matches: an event name or a page path.', values: FUNNEL_STEP_TYPES });
export const FunnelStepMatchRef = builder.enumType('FunnelStepMatch', { description: 'How a step value matches: exact, begins_with, contains or regex (RE2).', values: FUNNEL_STEP_MATCHES });
export const FunnelCreatorRef = builder.enumType('FunnelCreator', { description: 'Where a funnel was created: dashboard, mcp or cli.', values: FUNNEL_CREATORS });

export const AnomalyDirectionRef = builder.enumType('AnomalyDirection', { description: 'up (above what was expected) or down.', values: ANOMALY_DIRECTIONS });
export const AnomalyKindRef = builder.enumType('AnomalyKind', { description: 'spike (one day off) or shift (the first day of a run that stays off).', values: ANOMALY_KINDS });

export const MetricKindRef = builder.enumType('MetricKind', {
  description: 'additive (a count: a segment contributes its own change) or ratio (a rate or average: its change splits into mix and rate effects).',
  values: METRIC_KINDS,
});

export const DriverReasonRef = builder.enumType('DriverReason', {
  description: 'Why a driver is not significant: small (next to the strongest), in_line (moved like the rest of its dimension) or echo (of a stronger driver, `echoOf`).',
  values: DRIVER_REASONS,
});

export const OpportunityKindRef = builder.enumType('OpportunityKind', {
  description:
    "low_ctr (a CTR well under the site's own curve for its position), losing_clicks (fewer clicks than the range before), lost_query (clicks fell to 0) or cannibalisation (several pages competing for one query).",
  values: OPPORTUNITY_KINDS,
});

/** The raw proxy's provider: which native protocol the request speaks. */
export const RawProviderRef = builder.enumType('RawProvider', { description: 'The provider whose native protocol the request speaks.', values: SOURCES });

/**
 * A report's word as its enum's member. Reports type some words as plain strings (an echoed `sp`, a `kind`); a word
 * outside the list is a bug in the report, said as such rather than sent as a different word.
 */
export function wordOf<const V extends readonly string[]>(values: V, word: string): V[number] {
  if (!values.includes(word)) throw new Error(`"${word}" is not one of ${values.join(', ')}`);
  return word;
}
