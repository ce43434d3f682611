// The filter language (docs/rest-api.md): parse `dimension==value;…` into an immutable AST, format it back, check its dimensions.

import { RE2JS } from 're2js';
import { AppError, invalidParameter } from '../errors/app-error.ts';
import { didYouMean } from './close-matches.ts';
import { quoteInput } from './quote.ts';

export const FILTER_OPERATORS = ['==', '!=', '=@', '!@', '=~', '!~'] as const;
/** `==` equals, `!=` differs, `=@` contains, `!@` does not contain, `=~` regex matches, `!~` regex does not match. */
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FilterCondition {
  readonly dimension: string;
  readonly operator: FilterOperator;
  readonly value: string;
}

/** Conditions joined by `,` (OR). */
export interface FilterClause {
  readonly any: readonly FilterCondition[];
}

/** Clauses joined by `;` (AND). OR binds tighter, so the AST is always an AND of ORs. */
export interface FilterAst {
  readonly all: readonly FilterClause[];
}

export const MAX_FILTER_LENGTH = 2000;
export const MAX_FILTER_CONDITIONS = 20;

const OPERATOR_LIST = FILTER_OPERATORS.join(', ');
const DIMENSION_START = /[A-Za-z_]/;
const DIMENSION_CHAR = /[A-Za-z0-9_:]/;
const SPACE = /\s/;

export function isNegated(operator: FilterOperator): boolean {
  return operator[0] === '!';
}

export function isRegexOperator(operator: FilterOperator): boolean {
  return operator[1] === '~';
}

/** Why an RE2 pattern is rejected, or undefined when it compiles. */
export function regexProblem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'not a valid regular expression';
  }
}

/**
 * Parses a `filter` value; absent or empty means no filter. Values are taken verbatim (spaces
 * included); `\,` `\;` `\\` stand for `,` `;` `\`, and a backslash before any other character is kept
 * as typed (so regexes like `\d+` need no doubling). Whitespace before a dimension name is ignored.
 * With `allowedDimensions`, every dimension must be one of them (unknown ones get close matches).
 */
export function parseFilter(raw: string | undefined, param = 'filter', allowedDimensions?: readonly string[]): FilterAst | undefined {
  if (raw === undefined || raw === '') return undefined;
  const ast = parseFilterText(raw, param);
  if (allowedDimensions !== undefined) assertFilterDimensions(ast, allowedDimensions, { param, raw });
  return ast;
}

function parseFilterText(raw: string, param: string): FilterAst {
  const fail = (at: number, problem: string): AppError =>
    invalidParameter(param, `Invalid filter ${quoteInput(raw)}: ${problem} at character ${at + 1}.`);
  if (raw.length > MAX_FILTER_LENGTH) {
    throw invalidParameter(param, `Invalid filter ${quoteInput(raw)}: longer than ${MAX_FILTER_LENGTH} characters.`);
  }

  const clauses: FilterClause[] = [];
  let current: FilterCondition[] = [];
  let count = 0;
  let separator: string | undefined;
  let i = 0;
  for (;;) {
    while (i < raw.length && SPACE.test(raw[i] ?? '')) i++;
    // dimension
    const dimStart = i;
    if (i >= raw.length) {
      throw fail(i, separator === undefined ? 'expected a dimension name' : `expected a condition after ${quoteInput(separator)}`);
    }
    if (!DIMENSION_START.test(raw[i] ?? '')) {
      throw fail(i, `expected a dimension name, found ${quoteInput(raw[i] ?? '')}`);
    }
    while (i < raw.length && DIMENSION_CHAR.test(raw[i] ?? '')) i++;
    const dimension = raw.slice(dimStart, i);
    // operator
    const op = raw.slice(i, i + 2);
    if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
      const found = i >= raw.length ? 'the end' : quoteInput(raw.slice(i, i + 2));
      throw fail(i, `expected an operator (${OPERATOR_LIST}) after ${quoteInput(dimension)}, found ${found}`);
    }
    const operator = op as FilterOperator;
    i += 2;
    // value
    const valueStart = i;
    let value = '';
    while (i < raw.length) {
      const c = raw[i] as string;
      if (c === ',' || c === ';') break;
      if (c === '\\') {
        const next = raw[i + 1];
        if (next === undefined) throw fail(i, 'a backslash must be followed by the character it escapes');
        value += next === ',' || next === ';' || next === '\\' ? next : c + next;
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    if (value === '') throw fail(valueStart, `expected a value after ${quoteInput(dimension + operator)}`);
    if (isRegexOperator(operator)) {
      const problem = regexProblem(value);
      if (problem !== undefined) {
        throw fail(valueStart, `${quoteInput(value)} is not a valid RE2 regular expression (${problem})`);
      }
    }
    if (++count > MAX_FILTER_CONDITIONS) throw fail(dimStart, `more than ${MAX_FILTER_CONDITIONS} conditions`);
    current.push({ dimension, operator, value });
    if (i >= raw.length) break;
    separator = raw[i];
    if (separator === ';') {
      clauses.push({ any: current });
      current = [];
    }
    i++;
  }
  clauses.push({ any: current });
  return { all: clauses };
}

/** Writes a value so that `parseFilter` reads it back unchanged. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\,;]/g, (c) => `\\${c}`);
}

export function formatCondition(condition: FilterCondition): string {
  return `${condition.dimension}${condition.operator}${escapeFilterValue(condition.value)}`;
}

/** The canonical text of a filter: `parseFilter(formatFilter(ast))` deep-equals `ast`. */
export function formatFilter(ast: FilterAst): string {
  return ast.all.map((clause) => clause.any.map(formatCondition).join(',')).join(';');
}

/** Every condition, in order. */
export function filterConditions(ast: FilterAst): FilterCondition[] {
  return ast.all.flatMap((clause) => clause.any);
}

/** The distinct dimensions a filter uses, in order of first appearance. */
export function filterDimensions(ast: FilterAst): string[] {
  return [...new Set(filterConditions(ast).map((c) => c.dimension))];
}

export interface FilterDimensionCheck {
  readonly param?: string;
  /** Names the provider in the error when the list is that provider's capability. */
  readonly provider?: string;
  /** The filter as the caller wrote it, quoted in messages (default: the canonical text). */
  readonly raw?: string;
}

/**
 * Throws 400 `invalid_parameter` unless every filter dimension is in `allowed`. Without `provider` an
 * unknown name gets close matches; with it the message says that provider cannot filter on it.
 */
export function assertFilterDimensions(ast: FilterAst, allowed: readonly string[], check: FilterDimensionCheck = {}): void {
  const param = check.param ?? 'filter';
  for (const dimension of filterDimensions(ast)) {
    if (allowed.includes(dimension)) continue;
    const text = quoteInput(check.raw ?? formatFilter(ast));
    if (check.provider === undefined) {
      throw invalidParameter(param, `Unknown dimension ${quoteInput(dimension)} in filter ${text}.${didYouMean(dimension, allowed)}`);
    }
    throw new AppError(
      'invalid_parameter',
      `Filter ${text} is not supported by ${check.provider}: it cannot filter on ${quoteInput(dimension)} (it can filter on ${allowed.join(', ')}).`,
      { param, provider: check.provider },
    );
  }
}
