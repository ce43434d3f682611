// The comparison request: the question the current range asked — dimensions, metrics, the user's filter, value
// lists and order — asked over the comparison range. Every report and insight that reads a comparison range builds
// it here, so a filter can never be dropped or replaced on the way to the earlier range.
import type { DateRange } from './calendar.ts';
import type { FilterAst } from './filter.ts';
import type { Order } from './request-params.ts';

/** Rows limited to some values of a dimension, matched exactly (case-sensitive): e.g. the values a page shows. */
export interface ValueList {
  readonly dimension: string;
  readonly values: readonly string[];
}

/** A provider-neutral report request over one range (or two, for providers that take several in one request). */
export interface ReportRequest {
  readonly range: DateRange;
  /**
   * The comparison range asked in the same provider request (analytics takes several date ranges and labels each
   * row with its range); set only by `withComparisonRange`, so the two ranges share everything else.
   */
  readonly comparison?: DateRange;
  readonly dimensions: readonly string[];
  readonly metrics: readonly string[];
  /** The user's filter. */
  readonly filter?: FilterAst;
  /** Value lists, AND-ed with the filter and with each other. */
  readonly only?: readonly ValueList[];
  readonly order?: Order;
  readonly limit?: number;
  readonly offset?: number;
}

/**
 * The same request over the comparison range, as a request of its own. With `page` (the values the current range's
 * page shows), rows are restricted to those values — AND-ed with the user's filter, never instead of it — and the
 * current range's paging is dropped: the comparison asks for exactly those values (limit = their number), so paging
 * stays the current range's.
 */
export function comparisonRequest(current: ReportRequest, range: DateRange, page?: ValueList): ReportRequest {
  const { comparison: _sameRequest, ...request } = current;
  if (page === undefined) return { ...request, range };
  const { offset: _offset, ...unpaged } = request;
  return { ...unpaged, range, only: [...(current.only ?? []), page], limit: page.values.length };
}

/** The current request also asked over the comparison range in the same provider request (none: unchanged). */
export function withComparisonRange(current: ReportRequest, range: DateRange | undefined): ReportRequest {
  const { comparison: _previous, ...request } = current;
  return range === undefined ? request : { ...request, comparison: range };
}
