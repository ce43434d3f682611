// Local filtering of rows by a filter AST (engine2 has no server-side filter), case-insensitive like the providers.

import { RE2JS } from 're2js';
import type { FilterAst, FilterCondition } from './filter.ts';

/** Dimension values of one row; a missing dimension reads as the empty string. */
export type FilterRow = Readonly<Record<string, string | undefined>>;
export type RowPredicate = (row: FilterRow) => boolean;

function compileCondition(condition: FilterCondition): RowPredicate {
  const { dimension, operator } = condition;
  const needle = condition.value.toLowerCase();
  const read = (row: FilterRow): string => (row[dimension] ?? '').toLowerCase();
  switch (operator) {
    case '==':
      return (row) => read(row) === needle;
    case '!=':
      return (row) => read(row) !== needle;
    case '=@':
      return (row) => read(row).includes(needle);
    case '!@':
      return (row) => !read(row).includes(needle);
    case '=~':
    case '!~': {
      // Partial match (use ^…$ to anchor), case-insensitive: the same semantics the provider translations use.
      const re = RE2JS.compile(condition.value, RE2JS.CASE_INSENSITIVE);
      const want = operator === '=~';
      return (row) => re.test(row[dimension] ?? '') === want;
    }
  }
}

/** Compiles the filter once (regexes included) into a row predicate: every clause has a matching condition. */
export function compileFilter(ast: FilterAst | undefined): RowPredicate {
  if (ast === undefined) return () => true;
  const clauses = ast.all.map((clause) => clause.any.map(compileCondition));
  return (row) => clauses.every((any) => any.some((test) => test(row)));
}

/** True when `row` passes the filter (no filter passes everything). */
export function matchesFilter(ast: FilterAst | undefined, row: FilterRow): boolean {
  return compileFilter(ast)(row);
}
