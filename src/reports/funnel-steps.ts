// Stored funnel steps → v1alpha FunnelSteps. Events: an exact name is a
// funnelEventFilter; other matches filter the `eventName` field. Pages: a funnelFieldFilter on `pagePath` (the
// path without host or query, what stored page steps hold); the page_view + page_location parameter form would
// need full URLs and cannot express an anchored path regex. Regex is RE2, partial match (anchor with ^…$), as in
// the `=~` filter operator.
import type { FunnelStep } from '../store/funnels-repository.ts';

const MATCH_TYPES: Record<FunnelStep['match'], string> = {
  exact: 'EXACT',
  begins_with: 'BEGINS_WITH',
  contains: 'CONTAINS',
  regex: 'PARTIAL_REGEXP',
};

export const PAGE_FIELD = 'pagePath';

export function toFunnelFilterExpression(step: FunnelStep): Record<string, unknown> {
  if (step.type === 'event' && step.match === 'exact') return { funnelEventFilter: { eventName: step.value } };
  const fieldName = step.type === 'event' ? 'eventName' : PAGE_FIELD;
  return { funnelFieldFilter: { fieldName, stringFilter: { matchType: MATCH_TYPES[step.match], value: step.value } } };
}

export function toFunnelSteps(steps: readonly FunnelStep[]): Record<string, unknown>[] {
  return steps.map((step) => ({ name: step.name, filterExpression: toFunnelFilterExpression(step) }));
}
