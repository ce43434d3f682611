// Domain query pieces → GA4 Data API request parts (provider-contracts §A.2–A.3).
import type { analyticsdata_v1beta } from '@googleapis/analyticsdata';
import type { DateRange } from '../../domain/calendar.ts';
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
