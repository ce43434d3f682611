// The comparison request keeps the current request's question — dimensions, metrics, the user's filter, value lists
// and order — and changes only the range (and, for a page, restricts to its values and drops the paging).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparisonRequest, withComparisonRange, type ReportRequest, type ValueList } from '../../src/domain/comparison-request.ts';
import { parseFilter, type FilterAst } from '../../src/domain/filter.ts';
import { reportRequest, valueList } from './report-request-arbitraries.ts';

const PERIOD = { start: '2026-10-29', end: '2026-11-25' };
const BEFORE = { start: '2026-10-01', end: '2026-10-28' };
const mobile = parseFilter('deviceCategory==mobile') as FilterAst;
const page: ValueList = { dimension: 'country', values: ['Germany', 'France'] };
const base: ReportRequest = { range: PERIOD, dimensions: ['country'], metrics: ['sessions', 'activeUsers'], order: { metric: 'sessions', direction: 'desc' } };

describe('comparisonRequest', () => {
  it.each<[string, ReportRequest, ValueList | undefined, ReportRequest]>([
    ['no filter, no page: only the range moves', { ...base, limit: 50 }, undefined, { ...base, range: BEFORE, limit: 50 }],
    ['a filter is kept', { ...base, filter: mobile }, undefined, { ...base, range: BEFORE, filter: mobile }],
    [
      "a page: the filter AND the page's values, no offset, limit = number of values",
      { ...base, filter: mobile, limit: 2, offset: 40 },
      page,
      { ...base, range: BEFORE, filter: mobile, only: [page], limit: 2 },
    ],
    [
      'an existing value list is kept and the page is AND-ed to it',
      { ...base, only: [{ dimension: 'deviceCategory', values: ['mobile'] }] },
      page,
      { ...base, range: BEFORE, only: [{ dimension: 'deviceCategory', values: ['mobile'] }, page], limit: 2 },
    ],
    ['a same-request comparison range is not carried into a separate request', withComparisonRange(base, BEFORE), undefined, { ...base, range: BEFORE }],
  ])('%s', (_name, current, values, expected) => {
    expect(comparisonRequest(current, BEFORE, values)).toStrictEqual(expected);
  });
});

describe('withComparisonRange', () => {
  it('adds the range to the same request, or leaves the request as it is without one', () => {
    expect(withComparisonRange({ ...base, filter: mobile }, BEFORE)).toStrictEqual({ ...base, filter: mobile, comparison: BEFORE });
    expect(withComparisonRange(withComparisonRange(base, BEFORE), undefined)).toStrictEqual(base);
  });
});

describe('property: the comparison request keeps every user filter', () => {
  it('holds for any request, with or without a page', () => {
    fc.assert(
      fc.property(reportRequest, fc.option(valueList, { nil: undefined }), (current, values) => {
        const previous = comparisonRequest(current, BEFORE, values);
        expect(previous.range).toEqual(BEFORE);
        expect(previous.filter).toStrictEqual(current.filter);
        expect(previous.dimensions).toStrictEqual(current.dimensions);
        expect(previous.metrics).toStrictEqual(current.metrics);
        expect(previous.order).toStrictEqual(current.order);
        expect(previous.only ?? []).toStrictEqual([...(current.only ?? []), ...(values ? [values] : [])]);
        if (values) expect([previous.limit, previous.offset]).toEqual([values.values.length, undefined]);
        else expect([previous.limit, previous.offset]).toEqual([current.limit, current.offset]);
      }),
      { numRuns: 300 },
    );
  });
});
