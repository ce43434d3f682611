// The public parameters of the contract, described once: REST query/path parameters, MCP tool
// arguments and the OpenAPI document are all built from this table, so their names and meanings cannot drift.
import { DEFAULT_PERIOD, PERIOD_GRAMMAR } from '../domain/period.ts';
import { MAX_LIMIT, MAX_OFFSET } from '../domain/request-params.ts';

export type ParameterType = 'string' | 'integer' | 'boolean';

export interface ParameterInfo {
  type: ParameterType;
  description: string;
  example?: string | number | boolean;
  enum?: readonly string[];
  default?: string | number | boolean;
  /** Integers: the range the resolvers accept, advertised so clients need not guess. */
  minimum?: number;
  maximum?: number;
}

export const PARAMETERS = {
  project: { type: 'string', description: 'Project key (see list_projects / GET /projects/list).', example: 'acme-shop' },
  funnel: { type: 'string', description: 'Funnel key (see list_funnels / GET /projects/{projectKey}/funnels/list).', example: 'checkout-x7k2q' },
  period: {
    type: 'string',
    description: PERIOD_GRAMMAR,
    default: DEFAULT_PERIOD,
    example: '28days',
  },
  compare: {
    type: 'string',
    description:
      'previous (the same number of days just before; for a calendar period the previous month, quarter or year — to date: as many days, clipped to its end), year (364 days earlier, weekday-aligned; for a calendar period the same calendar dates a year earlier) or none.',
    enum: ['previous', 'year', 'none'],
  },
  force: { type: 'string', description: '1 bypasses the cache and refreshes it (limited to 30/hour per project); 0 or absent uses the cache.', enum: ['0', '1'] },
  metric: { type: 'string', description: 'One analytics metric (standard or custom; see metadata).', default: 'screenPageViews', example: 'sessions' },
  metrics: { type: 'string', description: 'Comma-separated analytics metrics (at most 10).', default: 'activeUsers,sessions,screenPageViews', example: 'sessions,keyEvents' },
  dimension: { type: 'string', description: 'The dimension to break down by (see metadata).', example: 'country' },
  interval: { type: 'string', description: 'hour, day, week or month. Default: hour for today/yesterday, day up to 90 days, week above.', enum: ['hour', 'day', 'week', 'month'] },
  sp: { type: 'string', description: 'Search provider: all (combined), engine1 or engine2 (aliases google, bing).', enum: ['all', 'engine1', 'engine2', 'google', 'bing'], default: 'all' },
  brand: {
    type: 'string',
    description: "all (default), brand or nonbrand: keep only queries that contain one of the project's brand terms (default: the domain's name), or only those that do not.",
    enum: ['all', 'brand', 'nonbrand'],
    default: 'all',
  },
  limit: { type: 'integer', description: `Rows per page (1–${MAX_LIMIT}).`, default: 50, minimum: 1, maximum: MAX_LIMIT },
  offset: { type: 'integer', description: `Rows to skip (0–${MAX_OFFSET}).`, default: 0, minimum: 0, maximum: MAX_OFFSET },
  order: { type: 'string', description: 'A metric to sort by; prefix - for descending. Default: the first metric, descending.', example: '-sessions' },
  filter: {
    type: 'string',
    description: 'dimension==value, != (not), =@ (contains), !@, =~ (RE2 regex), !~; ";" is AND, "," is OR (OR binds tighter). Escape , ; \\ with a backslash.',
    example: 'country==Germany;deviceCategory==mobile,deviceCategory==tablet',
  },
} as const satisfies Record<string, ParameterInfo>;

export type ParameterName = keyof typeof PARAMETERS;

/** REST path segments use the contract's `{projectKey}` / `{funnelKey}`; operations and MCP call them `project` / `funnel`. */
export const PATH_PARAMETER_NAMES: Record<string, ParameterName> = { projectKey: 'project', funnelKey: 'funnel' };
