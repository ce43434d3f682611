// Domain query pieces → GA4 Data API request parts.
import type { analyticsdata_v1beta } from '@googleapis/analyticsdata';
import type { DateRange } from '../../domain/calendar.ts';
import type { ReportRequest, ValueList } from '../../domain/comparison-request.ts';
import type { Order } from '../../domain/request-params.ts';
import type { FilterAst } from '../../domain/filter.ts';
import { toAnalyticsFilterExpression } from '../../domain/filter-analytics.ts';

/** Names of the date ranges; with two ranges, GA labels every row with them in the `dateRange` dimension. */
export const CURRENT_RANGE = 'current';
export const PREVIOUS_RANGE = 'previous';

export function toDateRanges(current: DateRange, previous?: DateRange): analyticsdata_v1beta.Schema$DateRange[] {
  const ranges = [{ startDate: current.start, endDate: current.end, name: CURRENT_RANGE }];
  if (previous) ranges.push({ startDate: previous.start, endDate: previous.end, name: PREVIOUS_RANGE });
  return ranges;
}

export function toMetrics(names: readonly string[]): analyticsdata_v1beta.Schema$Metric[] {
  return names.map((name) => ({ name }));
}

export function toDimensions(names: readonly string[]): analyticsdata_v1beta.Schema$Dimension[] {
  return names.map((name) => ({ name }));
}

export function toMetricOrder(order: Order): analyticsdata_v1beta.Schema$OrderBy {
  return { metric: { metricName: order.metric }, desc: order.direction === 'desc' };
}

/** Which range a row belongs to: the `dateRange` dimension when two ranges were asked, else the only one. */
export function rangeOf(row: { dimensions: Record<string, string> }): string {
  return row.dimensions.dateRange ?? CURRENT_RANGE;
}

/** The domain's filter (already checked against the property's dimensions) as a GA FilterExpression. */
export function toDimensionFilter(ast: FilterAst): analyticsdata_v1beta.Schema$FilterExpression {
  // The domain builds it immutable (readonly arrays); the wire type is the same shape, mutable.
  return toAnalyticsFilterExpression(ast) as analyticsdata_v1beta.Schema$FilterExpression;
}

/** A value list as GA's exact, case-sensitive `inListFilter`. */
function toInListFilter(list: ValueList): analyticsdata_v1beta.Schema$FilterExpression {
  return { filter: { fieldName: list.dimension, inListFilter: { values: [...list.values], caseSensitive: true } } };
}

/** The user's filter AND every value list, as one `dimensionFilter` (none when there is nothing to filter). */
function toRequestFilter(request: ReportRequest): analyticsdata_v1beta.Schema$FilterExpression | undefined {
  const parts = [...(request.filter ? [toDimensionFilter(request.filter)] : []), ...(request.only ?? []).map(toInListFilter)];
  if (parts.length <= 1) return parts[0];
  return { andGroup: { expressions: parts } };
}

/** A neutral report request as a runReport request; `extra` carries GA-only options (keepEmptyRows, metricAggregations). */
export function toAnalyticsRequest(request: ReportRequest, extra: Pick<analyticsdata_v1beta.Schema$RunReportRequest, 'keepEmptyRows' | 'metricAggregations'> = {}): analyticsdata_v1beta.Schema$RunReportRequest {
  const dimensionFilter = toRequestFilter(request);
  return {
    dateRanges: toDateRanges(request.range, request.comparison),
    ...(request.dimensions.length > 0 ? { dimensions: toDimensions(request.dimensions) } : {}),
    metrics: toMetrics(request.metrics),
    ...(dimensionFilter ? { dimensionFilter } : {}),
    ...(request.order ? { orderBys: [toMetricOrder(request.order)] } : {}),
    ...(request.limit !== undefined ? { limit: String(request.limit) } : {}),
    ...(request.offset ? { offset: String(request.offset) } : {}),
    ...extra,
  };
}
