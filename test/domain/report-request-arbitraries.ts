// fast-check arbitraries for neutral report requests: any user filter (AND of ORs over every operator), value
// lists, order and paging — shared by the comparison-request and the provider-translation properties.
import fc from 'fast-check';
import type { ReportRequest, ValueList } from '../../src/domain/comparison-request.ts';
import type { FilterAst, FilterCondition } from '../../src/domain/filter.ts';

const PERIOD = { start: '2026-10-29', end: '2026-11-25' };

const condition = fc.record({
  dimension: fc.constantFrom('country', 'deviceCategory', 'sessionSource', 'pagePath', 'customEvent:plan'),
  operator: fc.constantFrom<FilterCondition['operator']>('==', '!=', '=@', '!@', '=~', '!~'),
  value: fc.string({ minLength: 1, maxLength: 8 }),
});
const filterAst: fc.Arbitrary<FilterAst> = fc.array(fc.array(condition, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }).map((clauses) => ({ all: clauses.map((any) => ({ any })) }));
export const valueList: fc.Arbitrary<ValueList> = fc.record({ dimension: fc.constantFrom('country', 'pagePath'), values: fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 5 }) });
export const reportRequest: fc.Arbitrary<ReportRequest> = fc.record(
  {
    range: fc.constant(PERIOD),
    dimensions: fc.array(fc.constantFrom('country', 'deviceCategory', 'pagePath'), { maxLength: 2 }),
    metrics: fc.array(fc.constantFrom('sessions', 'activeUsers', 'screenPageViews'), { minLength: 1, maxLength: 3 }),
    filter: filterAst,
    only: fc.array(valueList, { maxLength: 2 }),
    order: fc.record({ metric: fc.constant('sessions'), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
    limit: fc.integer({ min: 1, max: 1000 }),
    offset: fc.integer({ min: 0, max: 1000 }),
  },
  { requiredKeys: ['range', 'dimensions', 'metrics'] },
);

