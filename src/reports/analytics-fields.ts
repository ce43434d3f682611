// The analytics metric and dimension names a property accepts. Standard names are known without asking: every
// property has them, so a request naming only standard metrics and dimensions is checked against the catalogue
// and costs no metadata call (and no round trip before its report). Anything else — a custom definition
// (`customEvent:plan`) or a name that is neither — is checked against the property's (cached, refreshed in the
// background when stale) metadata, so typos get a 400 with close matches and custom definitions just work.
import { ANALYTICS_DIMENSION_NAMES, ANALYTICS_METRIC_NAMES, analyticsMetricInfo, type MetricValueType } from '../domain/catalogue.ts';
import { filterDimensions, parseFilter } from '../domain/filter.ts';
import type { ReportDeps } from './report-deps.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';

export interface AnalyticsFields {
  metrics: readonly string[];
  dimensions: readonly string[];
  /** GA metric type (TYPE_INTEGER, TYPE_FLOAT, TYPE_SECONDS, …) by metric name. */
  metricType(name: string): string | undefined;
}

/** The names a request asks for, as sent (`metrics` comma-separated, `filter` in the filter language). */
export interface AskedNames {
  metrics?: string | null;
  dimensions?: readonly (string | null | undefined)[];
  filter?: string | null;
}

const GA_TYPES: Readonly<Record<MetricValueType, string>> = {
  integer: 'TYPE_INTEGER',
  float: 'TYPE_FLOAT',
  fraction: 'TYPE_FLOAT',
  seconds: 'TYPE_SECONDS',
  currency: 'TYPE_CURRENCY',
};

const STANDARD: AnalyticsFields = {
  metrics: ANALYTICS_METRIC_NAMES,
  dimensions: ANALYTICS_DIMENSION_NAMES,
  metricType: (name) => {
    const info = analyticsMetricInfo(name);
    return info && GA_TYPES[info.type];
  },
};

/**
 * The fields to validate a request's names against: the standard catalogue when `asked` names only standard ones,
 * else the property's metadata (which also lists the standard ones). Without `asked`, always the metadata.
 */
export async function analyticsFields(ctx: ReportDeps, source: ConnectedSource, asked?: AskedNames): Promise<AnalyticsFields> {
  if (asked && onlyStandard(asked)) return STANDARD;
  const metadata = await ctx.loaders.analytics.metadata(source);
  const types = new Map(metadata.value.metrics.map((m) => [m.apiName, m.type]));
  return {
    metrics: metadata.value.metrics.map((m) => m.apiName),
    dimensions: metadata.value.dimensions.map((d) => d.apiName),
    metricType: (name) => types.get(name),
  };
}

const STANDARD_METRICS = new Set(ANALYTICS_METRIC_NAMES);
const STANDARD_DIMENSIONS = new Set(ANALYTICS_DIMENSION_NAMES);

/** Absent names are the defaults (standard); a filter that does not parse goes the metadata way, which words its error. */
function onlyStandard(asked: AskedNames): boolean {
  const metrics = asked.metrics ? asked.metrics.split(',') : [];
  const dimensions = asked.dimensions?.filter((d): d is string => Boolean(d)) ?? [];
  let filtered: string[];
  try {
    const ast = parseFilter(asked.filter ?? undefined, 'filter');
    filtered = ast ? filterDimensions(ast) : [];
  } catch {
    return false;
  }
  return metrics.every((m) => STANDARD_METRICS.has(m)) && [...dimensions, ...filtered].every((d) => STANDARD_DIMENSIONS.has(d));
}
