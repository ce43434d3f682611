// Neutral report requests as GA runReport requests: the user's filter AND every value list in one dimensionFilter,
// so a comparison request sent to GA can never lose the filter its current request had.
import type { analyticsdata_v1beta } from '@googleapis/analyticsdata';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparisonRequest, withComparisonRange, type ReportRequest } from '../../../src/domain/comparison-request.ts';
import { parseFilter, type FilterAst } from '../../../src/domain/filter.ts';
import { toAnalyticsRequest } from '../../../src/providers/analytics/translate.ts';

type Expression = analyticsdata_v1beta.Schema$FilterExpression;
import { reportRequest } from '../../domain/report-request-arbitraries.ts';

const PERIOD = { start: '2026-10-29', end: '2026-11-25' };
const BEFORE = { start: '2026-10-01', end: '2026-10-28' };
const mobile = { filter: { fieldName: 'deviceCategory', stringFilter: { matchType: 'EXACT', value: 'mobile', caseSensitive: false } } };
const countries = { filter: { fieldName: 'country', inListFilter: { values: ['Germany', 'France'], caseSensitive: true } } };

describe('toAnalyticsRequest', () => {
  const current: ReportRequest = { range: PERIOD, dimensions: ['country'], metrics: ['sessions'], filter: parseFilter('deviceCategory==mobile') as FilterAst, order: { metric: 'sessions', direction: 'desc' }, limit: 2, offset: 10 };

  it('the current request: its filter, order and paging', () => {
    expect(toAnalyticsRequest(current)).toStrictEqual({
      dateRanges: [{ startDate: PERIOD.start, endDate: PERIOD.end, name: 'current' }],
      dimensions: [{ name: 'country' }],
      metrics: [{ name: 'sessions' }],
      dimensionFilter: mobile,
      orderBys: [{ metric: { metricName: 'sessions' }, desc: true }],
      limit: '2',
      offset: '10',
    });
  });

  it("the issue's comparison: mobile AND the page's countries over the range before", () => {
    expect(toAnalyticsRequest(comparisonRequest(current, BEFORE, { dimension: 'country', values: ['Germany', 'France'] }))).toStrictEqual({
      dateRanges: [{ startDate: BEFORE.start, endDate: BEFORE.end, name: 'current' }],
      dimensions: [{ name: 'country' }],
      metrics: [{ name: 'sessions' }],
      dimensionFilter: { andGroup: { expressions: [mobile, countries] } },
      orderBys: [{ metric: { metricName: 'sessions' }, desc: true }],
      limit: '2',
    });
  });

  it('both ranges in one request, named, with GA-only options', () => {
    const request = toAnalyticsRequest(withComparisonRange({ range: PERIOD, dimensions: [], metrics: ['sessions'] }, BEFORE), { keepEmptyRows: true });
    expect(request).toStrictEqual({
      dateRanges: [
        { startDate: PERIOD.start, endDate: PERIOD.end, name: 'current' },
        { startDate: BEFORE.start, endDate: BEFORE.end, name: 'previous' },
      ],
      metrics: [{ name: 'sessions' }],
      keepEmptyRows: true,
    });
  });
});

/** Every leaf condition of a GA filter expression, as text. */
function leaves(expression: Expression | null | undefined): string[] {
  if (!expression) return [];
  if (expression.andGroup) return (expression.andGroup.expressions ?? []).flatMap(leaves);
  if (expression.orGroup) return (expression.orGroup.expressions ?? []).flatMap(leaves);
  if (expression.notExpression) return leaves(expression.notExpression).map((l) => `not ${l}`);
  return [JSON.stringify(expression.filter)];
}

describe('property: a comparison sent to GA carries every condition of the current request', () => {
  it('holds for any request and page', () => {
    fc.assert(
      fc.property(reportRequest, fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 5 }), (current, values) => {
        const now = toAnalyticsRequest(current);
        const before = toAnalyticsRequest(comparisonRequest(current, BEFORE, { dimension: 'country', values }));
        const kept = new Set(leaves(before.dimensionFilter));
        for (const leaf of leaves(now.dimensionFilter)) expect(kept.has(leaf), leaf).toBe(true);
        expect(kept.has(JSON.stringify({ fieldName: 'country', inListFilter: { values, caseSensitive: true } }))).toBe(true);
        expect(before.metrics).toStrictEqual(now.metrics);
        expect(before.dimensions).toStrictEqual(now.dimensions);
        expect(before.orderBys).toStrictEqual(now.orderBys);
      }),
      { numRuns: 300 },
    );
  });
});
