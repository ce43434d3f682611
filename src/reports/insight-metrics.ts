// Which metrics insights can explain and how: an additive metric is summed over segments; a ratio metric is
// read as a numerator over a denominator (both additive), so its change splits into mix and rate effects.
import { SEARCH_METRIC_NAMES, type SearchMetricName } from '../domain/catalogue.ts';
import type { SegmentFigures } from '../domain/insights/decompose.ts';
import type { DimensionSegments, MetricKind } from '../domain/insights/drivers.ts';
import type { CachedResult } from '../cache/cached-fetch.ts';
import type { Warning } from './meta.ts';
import { invalidParameter } from '../errors/app-error.ts';
import type { AnalyticsFields } from './analytics-fields.ts';

export interface AnalyticsMetricPlan {
  source: 'analytics';
  metric: string;
  kind: MetricKind;
  /** The additive GA metrics to ask for. */
  fetch: string[];
  /** Numerator and denominator of a row's metrics (denominator 1 for additive metrics). */
  parts(metrics: Record<string, number>): { num: number; den: number };
}

export interface SearchMetricPlan {
  source: 'search';
  metric: SearchMetricName;
  kind: MetricKind;
  parts(figures: { clicks: number; impressions: number; position: number }): { num: number; den: number };
}

export type MetricPlan = AnalyticsMetricPlan | SearchMetricPlan;

const RATIOS: Record<string, { fetch: [string, string]; num: (m: Record<string, number>) => number; den: (m: Record<string, number>) => number }> = {
  engagementRate: { fetch: ['engagedSessions', 'sessions'], num: (m) => m.engagedSessions ?? 0, den: (m) => m.sessions ?? 0 },
  bounceRate: { fetch: ['engagedSessions', 'sessions'], num: (m) => (m.sessions ?? 0) - (m.engagedSessions ?? 0), den: (m) => m.sessions ?? 0 },
  screenPageViewsPerSession: { fetch: ['screenPageViews', 'sessions'], num: (m) => m.screenPageViews ?? 0, den: (m) => m.sessions ?? 0 },
  eventsPerSession: { fetch: ['eventCount', 'sessions'], num: (m) => m.eventCount ?? 0, den: (m) => m.sessions ?? 0 },
  sessionKeyEventRate: { fetch: ['keyEvents', 'sessions'], num: (m) => m.keyEvents ?? 0, den: (m) => m.sessions ?? 0 },
};

/** GA metric types whose values add up over segments. */
const ADDITIVE_TYPES = new Set(['TYPE_INTEGER', 'TYPE_CURRENCY', 'TYPE_SECONDS', 'TYPE_MILLISECONDS', 'TYPE_MINUTES', 'TYPE_HOURS']);

/** Averages and rates of the property (averageSessionDuration, sessionsPerUser, …) are not sums over segments. */
const AVERAGE_NAME = /^average|Per[A-Z]|Rate$/;

export const DEFAULT_INSIGHT_METRIC = 'sessions';

export function planMetric(raw: string | null | undefined, fields: AnalyticsFields | undefined): MetricPlan {
  const metric = raw === undefined || raw === null || raw === '' ? DEFAULT_INSIGHT_METRIC : raw;
  if ((SEARCH_METRIC_NAMES as readonly string[]).includes(metric)) return searchPlan(metric as SearchMetricName);
  if (!fields) throw invalidParameter('metric', `Unknown metric '${metric}'.`);
  if (!fields.metrics.includes(metric)) {
    throw invalidParameter('metric', `Unknown metric '${metric}': use an analytics metric of this property (see metadata) or one of ${SEARCH_METRIC_NAMES.join(', ')}.`);
  }
  const ratio = RATIOS[metric];
  if (ratio) return { source: 'analytics', metric, kind: 'ratio', fetch: [...ratio.fetch], parts: (m) => ({ num: ratio.num(m), den: ratio.den(m) }) };
  if (!ADDITIVE_TYPES.has(fields.metricType(metric) ?? '') || AVERAGE_NAME.test(metric)) {
    throw invalidParameter('metric', `Metric '${metric}' is neither a count nor a known ratio, so its change cannot be split by segment; try sessions, engagementRate or bounceRate.`);
  }
  return { source: 'analytics', metric, kind: 'additive', fetch: [metric], parts: (m) => ({ num: m[metric] ?? 0, den: 1 }) };
}

/** Whether a metric name is a search metric, before anything else is known. */
export function isSearchMetric(raw: string | null | undefined): boolean {
  return (SEARCH_METRIC_NAMES as readonly string[]).includes(raw ?? '');
}

function searchPlan(metric: SearchMetricName): SearchMetricPlan {
  switch (metric) {
    case 'clicks':
      return { source: 'search', metric, kind: 'additive', parts: (f) => ({ num: f.clicks, den: 1 }) };
    case 'impressions':
      return { source: 'search', metric, kind: 'additive', parts: (f) => ({ num: f.impressions, den: 1 }) };
    case 'ctr':
      return { source: 'search', metric, kind: 'ratio', parts: (f) => ({ num: f.clicks, den: f.impressions }) };
    case 'position':
      return { source: 'search', metric, kind: 'ratio', parts: (f) => ({ num: f.position * f.impressions, den: f.impressions }) };
  }
}

/** Segments from per-value figures of both ranges (a value seen in one range only is 0 in the other). */
export function toSegments(current: ReadonlyMap<string, { num: number; den: number }>, previous: ReadonlyMap<string, { num: number; den: number }>, additive: boolean): SegmentFigures[] {
  const none = { num: 0, den: additive ? 1 : 0 };
  const segments: SegmentFigures[] = [];
  for (const [value, c] of current) {
    const p = previous.get(value) ?? none;
    segments.push({ value, num1: c.num, den1: c.den, num0: p.num, den0: p.den });
  }
  for (const [value, p] of previous) if (!current.has(value)) segments.push({ value, num1: none.num, den1: none.den, num0: p.num, den0: p.den });
  return segments;
}

/** What a change explanation is computed from, whichever provider the metric comes from. */
export interface ChangeInputs {
  /** previous is null when no provider's history covers the comparison range: the change cannot be split. */
  total: { current: { num: number; den: number }; previous: { num: number; den: number } | null };
  dimensions: DimensionSegments[];
  /** The other dimensions inside one segment, for the echo test. */
  inside(reference: { dimension: string; value: string }): Promise<DimensionSegments[]>;
  results: CachedResult<unknown>[];
  warnings: Warning[];
  sources: string[];
  dataThrough?: string;
  sp?: string;
}
