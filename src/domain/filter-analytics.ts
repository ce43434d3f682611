// Filter AST → the analytics provider's FilterExpression (a `dimensionFilter`); every operator maps exactly.

import type { FilterAst, FilterCondition } from './filter.ts';

export type AnalyticsStringMatchType = 'EXACT' | 'CONTAINS' | 'PARTIAL_REGEXP';

export interface AnalyticsStringFilter {
  readonly fieldName: string;
  readonly stringFilter: {
    readonly matchType: AnalyticsStringMatchType;
    readonly value: string;
    readonly caseSensitive: boolean;
  };
}

export type AnalyticsFilterExpression =
  | { readonly andGroup: { readonly expressions: readonly AnalyticsFilterExpression[] } }
  | { readonly orGroup: { readonly expressions: readonly AnalyticsFilterExpression[] } }
  | { readonly notExpression: AnalyticsFilterExpression }
  | { readonly filter: AnalyticsStringFilter };

const MATCH_TYPES: Readonly<Record<FilterCondition['operator'], AnalyticsStringMatchType>> = {
  '==': 'EXACT',
  '!=': 'EXACT',
  '=@': 'CONTAINS',
  '!@': 'CONTAINS',
  '=~': 'PARTIAL_REGEXP',
  '!~': 'PARTIAL_REGEXP',
};

/**
 * One condition. Matching is case-insensitive (`caseSensitive: false`, sent explicitly) so the same
 * filter means the same thing on every provider (engine1 only compares case-insensitively). `=~` is a
 * partial match, as in the classic analytics filter syntax: anchor with `^…$` for a full match.
 */
function toExpression(condition: FilterCondition): AnalyticsFilterExpression {
  const filter: AnalyticsFilterExpression = {
    filter: {
      fieldName: condition.dimension,
      stringFilter: { matchType: MATCH_TYPES[condition.operator], value: condition.value, caseSensitive: false },
    },
  };
  return condition.operator.startsWith('!') ? { notExpression: filter } : filter;
}

/** The `dimensionFilter` for a filter: an `andGroup` of `orGroup`s, with single-member groups unwrapped. */
export function toAnalyticsFilterExpression(ast: FilterAst): AnalyticsFilterExpression {
  const clauses = ast.all.map((clause): AnalyticsFilterExpression => {
    const expressions = clause.any.map(toExpression);
    return expressions.length === 1 ? (expressions[0] as AnalyticsFilterExpression) : { orGroup: { expressions } };
  });
  return clauses.length === 1 ? (clauses[0] as AnalyticsFilterExpression) : { andGroup: { expressions: clauses } };
}
