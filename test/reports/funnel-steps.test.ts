// Stored funnel steps → v1alpha funnel steps, and users per step → conversion and drop-off.
import { describe, expect, it } from 'vitest';
import { toStepResults } from '../../src/reports/funnel-results.ts';
import { toFunnelFilterExpression, toFunnelSteps } from '../../src/reports/funnel-steps.ts';
import type { FunnelReport } from '../../src/providers/analytics/normalize-funnel.ts';
import type { FunnelRecord } from '../../src/store/funnels-repository.ts';

describe('toFunnelFilterExpression', () => {
  it.each([
    [{ type: 'event', match: 'exact', value: 'purchase' }, { funnelEventFilter: { eventName: 'purchase' } }],
    [{ type: 'event', match: 'begins_with', value: 'sign_up' }, { funnelFieldFilter: { fieldName: 'eventName', stringFilter: { matchType: 'BEGINS_WITH', value: 'sign_up' } } }],
    [{ type: 'event', match: 'regex', value: '^add_' }, { funnelFieldFilter: { fieldName: 'eventName', stringFilter: { matchType: 'PARTIAL_REGEXP', value: '^add_' } } }],
    [{ type: 'page', match: 'exact', value: '/pricing' }, { funnelFieldFilter: { fieldName: 'pagePath', stringFilter: { matchType: 'EXACT', value: '/pricing' } } }],
    [{ type: 'page', match: 'contains', value: 'checkout' }, { funnelFieldFilter: { fieldName: 'pagePath', stringFilter: { matchType: 'CONTAINS', value: 'checkout' } } }],
  ] as const)('%o', (step, expected) => {
    expect(toFunnelFilterExpression({ name: 'x', ...step })).toEqual(expected);
  });

  it('keeps step names and order', () => {
    const steps = toFunnelSteps([
      { name: 'A', type: 'page', match: 'exact', value: '/' },
      { name: 'B', type: 'event', match: 'exact', value: 'b' },
    ]);
    expect(steps.map((s) => s.name)).toEqual(['A', 'B']);
  });
});

describe('toStepResults', () => {
  const funnel = {
    steps: [
      { name: 'One', type: 'page', match: 'exact', value: '/' },
      { name: 'Two', type: 'event', match: 'exact', value: 'b' },
      { name: 'Three', type: 'event', match: 'exact', value: 'c' },
    ],
  } as FunnelRecord;
  const report = (users: [number, number][]): FunnelReport => ({
    steps: users.map(([step, activeUsers]) => ({ step, name: '', activeUsers, completionRate: 0, abandonments: 0, abandonmentRate: 0, dimensions: {} })),
    table: [],
    visualization: [],
    warnings: [],
  });

  it('computes conversion from step 1 and drop-off from the previous step', () => {
    expect(toStepResults(funnel, report([[1, 200], [2, 50], [3, 10]]))).toEqual([
      { name: 'One', users: 200, conversionRate: 1, dropOff: 0, dropOffRate: 0 },
      { name: 'Two', users: 50, conversionRate: 0.25, dropOff: 150, dropOffRate: 0.75 },
      { name: 'Three', users: 10, conversionRate: 0.05, dropOff: 40, dropOffRate: 0.8 },
    ]);
  });

  it('a step the provider left out counts 0; no users at all gives rates of 0, not NaN', () => {
    expect(toStepResults(funnel, report([[1, 20]])).map((s) => s.users)).toEqual([20, 0, 0]);
    expect(toStepResults(funnel, report([]))).toEqual(funnel.steps.map((s) => ({ name: s.name, users: 0, conversionRate: 0, dropOff: 0, dropOffRate: 0 })));
  });
});
