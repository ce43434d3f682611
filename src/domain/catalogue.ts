// The metrics and dimensions Siteline knows for analytics and search, and name validation with close matches.

import { invalidParameter } from '../errors/app-error.ts';
import { didYouMean } from './close-matches.ts';
import { quoteInput } from './quote.ts';
import type { SearchSource } from './sources.ts';

/**
 * How a metric's numbers read: `fraction` is a rate in 0–1 (0.53, not 53 %), `seconds` a duration,
 * `currency` an amount in the property's currency.
 */
export type MetricValueType = 'integer' | 'float' | 'fraction' | 'seconds' | 'currency';

export interface MetricInfo {
  readonly name: string;
  readonly label: string;
  readonly type: MetricValueType;
  /** True when row values add up to the total (sessions); false for users, rates and averages. */
  readonly additive: boolean;
}

export interface DimensionInfo {
  readonly name: string;
  readonly label: string;
}

function metric(name: string, label: string, type: MetricValueType, additive: boolean): MetricInfo {
  return { name, label, type, additive };
}

/** The summary metrics, in response order. */
export const SUMMARY_METRICS = [
  'activeUsers',
  'newUsers',
  'sessions',
  'screenPageViews',
  'engagedSessions',
  'engagementRate',
  'bounceRate',
  'averageSessionDuration',
  'screenPageViewsPerSession',
  'eventCount',
  'keyEvents',
] as const;
export type SummaryMetric = (typeof SUMMARY_METRICS)[number];

export const DEFAULT_TIMESERIES_METRIC = 'screenPageViews';
export const DEFAULT_DIMENSION_METRICS = ['activeUsers', 'sessions', 'screenPageViews'] as const;
/** The provider accepts at most 10 metrics per report. */
export const MAX_METRICS = 10;

/** Standard analytics metrics. A property's metadata is the authority at run time (custom metrics). */
export const ANALYTICS_METRICS: readonly MetricInfo[] = [
  metric('activeUsers', 'Active users', 'integer', false),
  metric('newUsers', 'New users', 'integer', true),
  metric('totalUsers', 'Total users', 'integer', false),
  metric('sessions', 'Sessions', 'integer', true),
  metric('screenPageViews', 'Views', 'integer', true),
  metric('engagedSessions', 'Engaged sessions', 'integer', true),
  metric('engagementRate', 'Engagement rate', 'fraction', false),
  metric('bounceRate', 'Bounce rate', 'fraction', false),
  metric('averageSessionDuration', 'Average session duration', 'seconds', false),
  metric('screenPageViewsPerSession', 'Views per session', 'float', false),
  metric('screenPageViewsPerUser', 'Views per user', 'float', false),
  metric('sessionsPerUser', 'Sessions per user', 'float', false),
  metric('userEngagementDuration', 'User engagement duration', 'seconds', true),
  metric('eventCount', 'Event count', 'integer', true),
  metric('eventCountPerUser', 'Events per user', 'float', false),
  metric('eventsPerSession', 'Events per session', 'float', false),
  metric('keyEvents', 'Key events', 'integer', true),
  metric('sessionKeyEventRate', 'Session key event rate', 'fraction', false),
  metric('userKeyEventRate', 'User key event rate', 'fraction', false),
  metric('active1DayUsers', '1-day active users', 'integer', false),
  metric('active7DayUsers', '7-day active users', 'integer', false),
  metric('active28DayUsers', '28-day active users', 'integer', false),
  metric('scrolledUsers', 'Scrolled users', 'integer', false),
  metric('transactions', 'Transactions', 'integer', true),
  metric('ecommercePurchases', 'E-commerce purchases', 'integer', true),
  metric('totalPurchasers', 'Total purchasers', 'integer', false),
  metric('purchaseRevenue', 'Purchase revenue', 'currency', true),
  metric('totalRevenue', 'Total revenue', 'currency', true),
  metric('eventValue', 'Event value', 'float', true),
];

/** Standard analytics dimensions (custom ones are `customEvent:*`, `customUser:*`, `customItem:*`). */
export const ANALYTICS_DIMENSIONS: readonly DimensionInfo[] = [
  { name: 'date', label: 'Date' },
  { name: 'dateHour', label: 'Date and hour' },
  { name: 'hour', label: 'Hour' },
  { name: 'dayOfWeek', label: 'Day of week' },
  { name: 'isoYearIsoWeek', label: 'ISO week of ISO year' },
  { name: 'yearMonth', label: 'Month of year' },
  { name: 'country', label: 'Country' },
  { name: 'countryId', label: 'Country ID' },
  { name: 'region', label: 'Region' },
  { name: 'city', label: 'City' },
  { name: 'continent', label: 'Continent' },
  { name: 'language', label: 'Language' },
  { name: 'deviceCategory', label: 'Device category' },
  { name: 'operatingSystem', label: 'Operating system' },
  { name: 'browser', label: 'Browser' },
  { name: 'platform', label: 'Platform' },
  { name: 'screenResolution', label: 'Screen resolution' },
  { name: 'hostName', label: 'Hostname' },
  { name: 'pagePath', label: 'Page path' },
  { name: 'pagePathPlusQueryString', label: 'Page path and query string' },
  { name: 'pageTitle', label: 'Page title' },
  { name: 'pageLocation', label: 'Page location' },
  { name: 'pageReferrer', label: 'Page referrer' },
  { name: 'landingPage', label: 'Landing page' },
  { name: 'landingPagePlusQueryString', label: 'Landing page and query string' },
  { name: 'sessionSource', label: 'Session source' },
  { name: 'sessionMedium', label: 'Session medium' },
  { name: 'sessionSourceMedium', label: 'Session source / medium' },
  { name: 'sessionCampaignName', label: 'Session campaign' },
  { name: 'sessionDefaultChannelGroup', label: 'Session default channel group' },
  { name: 'firstUserSource', label: 'First user source' },
  { name: 'firstUserMedium', label: 'First user medium' },
  { name: 'firstUserDefaultChannelGroup', label: 'First user default channel group' },
  { name: 'newVsReturning', label: 'New / returning' },
  { name: 'eventName', label: 'Event name' },
  { name: 'isKeyEvent', label: 'Is key event' },
];

const CUSTOM_DIMENSION = /^(customEvent|customUser|customItem):[A-Za-z][A-Za-z0-9_]*$/;
const CUSTOM_METRIC = /^(customEvent|averageCustomEvent|countCustomEvent):[A-Za-z][A-Za-z0-9_]*$/;

/** True for the provider's custom-definition name syntax (`customEvent:plan`). */
export function isCustomDimensionName(name: string): boolean {
  return CUSTOM_DIMENSION.test(name);
}

export function isCustomMetricName(name: string): boolean {
  return CUSTOM_METRIC.test(name);
}

const METRIC_BY_NAME = new Map(ANALYTICS_METRICS.map((m) => [m.name, m]));

/** Catalogue entry of a standard metric; undefined for custom or unknown names. */
export function analyticsMetricInfo(name: string): MetricInfo | undefined {
  return METRIC_BY_NAME.get(name);
}

/** How each value type reads, said once for every description of a metric (GraphQL fields, docs). */
const UNIT_TEXT: Readonly<Record<MetricValueType, string>> = {
  integer: 'a count',
  float: 'a ratio of two counts (not a count itself)',
  fraction: 'a fraction 0–1 (0.53 = 53 %), not a percentage',
  seconds: 'in seconds',
  currency: "an amount in the property's currency (DataSource.currency of analytics)",
};

/** `Sessions: a count.` — a metric's label and unit, for descriptions generated from this catalogue. */
export function metricDescription(info: MetricInfo): string {
  return `${info.label}: ${info.name === 'position' ? 'the impression-weighted average rank in search results, 1-based (lower is better)' : UNIT_TEXT[info.type]}.`;
}

/** The description of a standard analytics or search metric by name; undefined for other names. */
export function describeMetricName(name: string): string | undefined {
  const info = METRIC_BY_NAME.get(name) ?? SEARCH_METRICS.find((m) => m.name === name);
  return info && metricDescription(info);
}

export const ANALYTICS_METRIC_NAMES: readonly string[] = ANALYTICS_METRICS.map((m) => m.name);
export const ANALYTICS_DIMENSION_NAMES: readonly string[] = ANALYTICS_DIMENSIONS.map((d) => d.name);

export type FieldKind = 'metric' | 'dimension';

/**
 * Returns `name` when it is in `available` (exact, case-sensitive: provider names are); otherwise
 * throws 400 `invalid_parameter` for `param`, quoting the name and offering up to 3 close matches.
 */
export function requireAvailableName(param: string, kind: FieldKind, name: string, available: readonly string[]): string {
  if (available.includes(name)) return name;
  if (name === '') throw invalidParameter(param, `Empty ${kind} name in ${param}.`);
  throw invalidParameter(
    param,
    `Unknown ${kind} ${quoteInput(name)} in ${param}.${didYouMean(name, available)} The metadata endpoint lists every available ${kind}.`,
  );
}

export interface NameListOptions {
  readonly param: string;
  readonly kind: FieldKind;
  readonly available: readonly string[];
  readonly fallback: readonly string[];
  readonly max: number;
}

/** Parses a comma-separated list such as `metrics=activeUsers,sessions`: known names, no repeats, at most `max`. */
export function parseNameList(raw: string | undefined, options: NameListOptions): readonly string[] {
  const { param, kind, available, fallback, max } = options;
  if (raw === undefined || raw === '') return fallback;
  const names = raw.split(',');
  if (names.length > max) {
    throw invalidParameter(param, `Too many ${kind}s in ${param} ${quoteInput(raw)}: at most ${max} are allowed, got ${names.length}.`);
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '') throw invalidParameter(param, `Empty ${kind} name in ${param} ${quoteInput(raw)}.`);
    requireAvailableName(param, kind, name, available);
    if (seen.has(name)) throw invalidParameter(param, `${kind} ${quoteInput(name)} appears twice in ${param} ${quoteInput(raw)}.`);
    seen.add(name);
  }
  return names;
}

/** Parses a single required name such as `dimension=country`. */
export function parseRequiredName(raw: string | undefined, param: string, kind: FieldKind, available: readonly string[]): string {
  if (raw === undefined || raw === '') {
    throw invalidParameter(param, `Missing ${param}: give one ${kind} name, e.g. ${quoteInput(available[0] ?? kind)}.`);
  }
  return requireAvailableName(param, kind, raw, available);
}

// ---- search ----------------------------------------------------------------------------------------

export const SEARCH_METRICS: readonly MetricInfo[] = [
  metric('clicks', 'Clicks', 'integer', true),
  metric('impressions', 'Impressions', 'integer', true),
  metric('ctr', 'Click-through rate', 'fraction', false),
  metric('position', 'Average position', 'float', false),
];
export const SEARCH_METRIC_NAMES = ['clicks', 'impressions', 'ctr', 'position'] as const;
export type SearchMetricName = (typeof SEARCH_METRIC_NAMES)[number];

export const SEARCH_DIMENSION_NAMES = ['query', 'page', 'country', 'device', 'date'] as const;
export type SearchDimension = (typeof SEARCH_DIMENSION_NAMES)[number];

/** Which engines can break search data down by each dimension (engine2 serves query and page only). */
export const SEARCH_DIMENSION_SOURCES: Readonly<Record<SearchDimension, readonly SearchSource[]>> = {
  query: ['engine1', 'engine2'],
  page: ['engine1', 'engine2'],
  country: ['engine1'],
  device: ['engine1'],
  date: ['engine1'],
};

/** The engines among `wanted` that serve `dimension`. */
export function searchSourcesFor(dimension: SearchDimension, wanted: readonly SearchSource[]): SearchSource[] {
  return wanted.filter((s) => SEARCH_DIMENSION_SOURCES[dimension].includes(s));
}
