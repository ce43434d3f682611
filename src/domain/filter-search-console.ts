// Filter AST → engine1's `dimensionFilterGroups` (AND of filters only); what it cannot express is a 400, never a guess.

import { RE2JS } from 're2js';
import { AppError } from '../errors/app-error.ts';
import { normaliseCountry } from './countries.ts';
import { type FilterAst, type FilterCondition, formatCondition, formatFilter, isNegated } from './filter.ts';
import { quoteInput } from './quote.ts';
import { normaliseDevice } from './search-normalise.ts';

export type SearchConsoleOperator = 'equals' | 'notEquals' | 'contains' | 'notContains' | 'includingRegex' | 'excludingRegex';

export interface SearchConsoleFilter {
  readonly dimension: string;
  readonly operator: SearchConsoleOperator;
  readonly expression: string;
}

export interface SearchConsoleFilterGroup {
  readonly groupType: 'and';
  readonly filters: readonly SearchConsoleFilter[];
}

/** Dimensions engine1 can filter on among Siteline's search dimensions (it cannot filter on `date`). */
export const SEARCH_CONSOLE_FILTER_DIMENSIONS = ['query', 'page', 'country', 'device'] as const;

const PROVIDER = 'engine1';

const OPERATORS: Readonly<Record<FilterCondition['operator'], SearchConsoleOperator>> = {
  '==': 'equals',
  '!=': 'notEquals',
  '=@': 'contains',
  '!@': 'notContains',
  '=~': 'includingRegex',
  '!~': 'excludingRegex',
};

/**
 * engine1 compares `equals`/`contains` case-insensitively but runs regexes as written (case-sensitive),
 * so regexes get RE2's `(?i)` flag: one meaning of `=~` on every provider.
 */
const CASE_INSENSITIVE = '(?i)';

/** Country values are sent as engine1 keys them (alpha-3, lower case), so `country==Germany` works. */
function expressionValue(condition: FilterCondition): string {
  if (condition.operator !== '==' && condition.operator !== '!=') return condition.value;
  if (condition.dimension === 'country') return normaliseCountry(condition.value);
  if (condition.dimension === 'device') return normaliseDevice(condition.value);
  return condition.value;
}

function toFilter(condition: FilterCondition): SearchConsoleFilter {
  const operator = OPERATORS[condition.operator];
  const value = expressionValue(condition);
  const regex = operator === 'includingRegex' || operator === 'excludingRegex';
  return { dimension: condition.dimension, operator, expression: regex ? CASE_INSENSITIVE + value : value };
}

/** The RE2 alternative matching what one positive condition matches. */
function asRegexAlternative(condition: FilterCondition): string {
  const value = expressionValue(condition);
  switch (condition.operator) {
    case '==':
      return `^${RE2JS.quote(value)}$`;
    case '=@':
      return RE2JS.quote(value);
    default:
      return `(?:${value})`;
  }
}

function unsupported(raw: string, problem: string): AppError {
  return new AppError('invalid_parameter', `Filter ${quoteInput(raw)} is not supported by ${PROVIDER}: ${problem}.`, {
    param: 'filter',
    provider: PROVIDER,
  });
}

export interface SearchConsoleFilterOptions {
  /** The filter as the caller wrote it, quoted in messages (default: the canonical text). */
  readonly raw?: string;
}

/**
 * engine1 ANDs all filters and has no OR. An OR clause is translated only when it is exactly an
 * `includingRegex` in disguise: all its conditions positive (`==`, `=@`, `=~`) on one dimension, joined
 * into one case-insensitive RE2 alternation. An OR across dimensions or with a negation is refused
 * with a 400 naming engine1, and so is a dimension engine1 cannot filter on.
 */
export function toSearchConsoleFilterGroups(ast: FilterAst, options: SearchConsoleFilterOptions = {}): SearchConsoleFilterGroup[] {
  const raw = options.raw ?? formatFilter(ast);
  const filters = ast.all.map((clause): SearchConsoleFilter => {
    for (const c of clause.any) {
      if (!(SEARCH_CONSOLE_FILTER_DIMENSIONS as readonly string[]).includes(c.dimension)) {
        throw unsupported(raw, `it cannot filter on ${quoteInput(c.dimension)} (it can filter on ${SEARCH_CONSOLE_FILTER_DIMENSIONS.join(', ')})`);
      }
    }
    const [first, ...rest] = clause.any;
    if (first === undefined) throw new Error('toSearchConsoleFilterGroups: empty OR clause');
    if (rest.length === 0) return toFilter(first);
    const text = quoteInput(clause.any.map(formatCondition).join(','));
    if (clause.any.some((c) => c.dimension !== first.dimension)) {
      throw unsupported(raw, `it cannot combine conditions on different dimensions with "," (OR) as in ${text}; use ";" (AND) or separate requests`);
    }
    if (clause.any.some((c) => isNegated(c.operator))) {
      throw unsupported(raw, `it cannot combine negated conditions (!=, !@, !~) with "," (OR) as in ${text}`);
    }
    return {
      dimension: first.dimension,
      operator: 'includingRegex',
      expression: CASE_INSENSITIVE + clause.any.map(asRegexAlternative).join('|'),
    };
  });
  return [{ groupType: 'and', filters }];
}
