// The closed sets of words the contract answers with that the domain does not list itself (compare modes,
// intervals, sources and search dimensions it does): the zod response schemas (OpenAPI `enum`, MCP output schemas)
// and the GraphQL enums are built from them, so no surface can list a word another does not. Each list is checked
// against the type it names — here for domain types, in src/graphql/types/enums.ts for the store's and the cache's —
// so a word added there and not here fails the typecheck.
import type { Anomaly } from '../domain/insights/anomalies.ts';
import type { MetricKind } from '../domain/insights/decompose.ts';
import type { Driver } from '../domain/insights/drivers.ts';
import type { BrandFilter, OpportunityKind } from '../domain/insights/search-opportunities.ts';

/** `values`, if it names every member of `T` (the compiler says which one is missing otherwise). */
export function allOf<T extends string>() {
  return <const V extends readonly T[]>(values: V & ([Exclude<T, V[number]>] extends [never] ? unknown : { missing: Exclude<T, V[number]> })): V => values;
}

export const CACHE_STATES = ['hit', 'miss', 'stale', 'refresh'] as const;
export const DATA_SOURCE_STATUSES = ['ok', 'error', 'pending', 'not_connected'] as const;
/** `sp` as answers echo it (the aliases google and bing are answered as engine1 and engine2). */
export const SEARCH_PROVIDERS = ['all', 'engine1', 'engine2'] as const;
export const FUNNEL_STEP_TYPES = ['event', 'page'] as const;
export const FUNNEL_STEP_MATCHES = ['exact', 'begins_with', 'contains', 'regex'] as const;
export const FUNNEL_CREATORS = ['dashboard', 'mcp', 'cli'] as const;
export const ANOMALY_DIRECTIONS = allOf<Anomaly['direction']>()(['up', 'down']);
export const ANOMALY_KINDS = allOf<Anomaly['kind']>()(['spike', 'shift']);
export const METRIC_KINDS = allOf<MetricKind>()(['additive', 'ratio']);
export const DRIVER_REASONS = allOf<NonNullable<Driver['reason']>>()(['small', 'in_line', 'echo']);
export const OPPORTUNITY_KINDS = allOf<OpportunityKind>()(['low_ctr', 'losing_clicks', 'lost_query', 'cannibalisation']);
export const BRAND_FILTERS = allOf<BrandFilter>()(['all', 'brand', 'nonbrand']);
