// GA FilterExpression: validated and compiled once into a predicate (string match types incl. RE2 regex,
// inList, numeric, between, empty; and/or/not). Dimension filters see strings, metric filters see numbers.
import { RE2JS } from 're2js';
import { invalid } from './ga-errors.ts';

export type FieldGetter = (field: string) => string | number;
export type Predicate = (get: FieldGetter) => boolean;

export interface CompiledFilter {
  test: Predicate;
  fields: Set<string>;
}

const MATCH_TYPES = ['EXACT', 'BEGINS_WITH', 'ENDS_WITH', 'CONTAINS', 'FULL_REGEXP', 'PARTIAL_REGEXP'];
const OPERATIONS = ['EQUAL', 'LESS_THAN', 'LESS_THAN_OR_EQUAL', 'GREATER_THAN', 'GREATER_THAN_OR_EQUAL'];

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

export function numericValue(v: unknown, where: string): number {
  const o = obj(v);
  if (o.int64Value !== undefined) {
    const n = Number(o.int64Value);
    if (!Number.isFinite(n)) throw invalid(`${where}: int64Value must be an integer.`);
    return n;
  }
  if (o.doubleValue !== undefined) return Number(o.doubleValue);
  throw invalid(`${where}: NumericValue must set int64Value or doubleValue.`);
}

/**
 * Compiles a FilterExpression. `checkField` validates each field name (throws the provider error) and
 * reports its kind, so a dimension filter naming a metric is rejected like the real API does.
 */
export function compileFilter(expr: unknown, checkField: (name: string) => void, path = 'filter'): CompiledFilter {
  const fields = new Set<string>();
  const test = compile(expr, checkField, fields, path);
  return { test, fields };
}

function compile(expr: unknown, checkField: (name: string) => void, fields: Set<string>, path: string): Predicate {
  const e = obj(expr);
  const keys = ['andGroup', 'orGroup', 'notExpression', 'filter'].filter((k) => e[k] !== undefined);
  if (keys.length !== 1) throw invalid(`${path}: a FilterExpression must set exactly one of andGroup, orGroup, notExpression, filter.`);
  if (e.andGroup !== undefined || e.orGroup !== undefined) {
    const list = obj(e.andGroup ?? e.orGroup).expressions;
    if (!Array.isArray(list) || list.length === 0) throw invalid(`${path}: group expressions must not be empty.`);
    const parts = list.map((x, i) => compile(x, checkField, fields, `${path}.expressions[${i}]`));
    return e.andGroup !== undefined ? (get) => parts.every((p) => p(get)) : (get) => parts.some((p) => p(get));
  }
  if (e.notExpression !== undefined) {
    const inner = compile(e.notExpression, checkField, fields, `${path}.notExpression`);
    return (get) => !inner(get);
  }
  return compileLeaf(obj(e.filter), checkField, fields, path);
}

function compileLeaf(f: Json, checkField: (name: string) => void, fields: Set<string>, path: string): Predicate {
  const field = f.fieldName;
  if (typeof field !== 'string' || !field) throw invalid(`${path}: fieldName is required.`);
  checkField(field);
  fields.add(field);
  const kinds = ['stringFilter', 'inListFilter', 'numericFilter', 'betweenFilter', 'emptyFilter'].filter((k) => f[k] !== undefined);
  if (kinds.length !== 1) throw invalid(`${path}: a Filter must set exactly one of stringFilter, inListFilter, numericFilter, betweenFilter, emptyFilter.`);
  const str = (get: FieldGetter) => String(get(field));
  const num = (get: FieldGetter) => Number(get(field));
  if (f.stringFilter !== undefined) {
    const s = obj(f.stringFilter);
    const matchType = String(s.matchType ?? 'EXACT');
    if (!MATCH_TYPES.includes(matchType)) throw invalid(`${path}: invalid matchType ${matchType}.`);
    const value = String(s.value ?? '');
    const caseSensitive = s.caseSensitive === true;
    if (matchType === 'FULL_REGEXP' || matchType === 'PARTIAL_REGEXP') {
      let re: RE2JS;
      try {
        re = RE2JS.compile(value, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
      } catch {
        throw invalid(`${path}: invalid regular expression ${value}.`);
      }
      return matchType === 'FULL_REGEXP' ? (get) => re.matches(str(get)) : (get) => re.matcher(str(get)).find();
    }
    const norm = (x: string) => (caseSensitive ? x : x.toLowerCase());
    const v = norm(value);
    switch (matchType) {
      case 'BEGINS_WITH': return (get) => norm(str(get)).startsWith(v);
      case 'ENDS_WITH': return (get) => norm(str(get)).endsWith(v);
      case 'CONTAINS': return (get) => norm(str(get)).includes(v);
      default: return (get) => norm(str(get)) === v;
    }
  }
  if (f.inListFilter !== undefined) {
    const s = obj(f.inListFilter);
    if (!Array.isArray(s.values) || s.values.length === 0) throw invalid(`${path}: inListFilter.values must not be empty.`);
    const caseSensitive = s.caseSensitive === true;
    const set = new Set(s.values.map((x) => (caseSensitive ? String(x) : String(x).toLowerCase())));
    return (get) => set.has(caseSensitive ? str(get) : str(get).toLowerCase());
  }
  if (f.numericFilter !== undefined) {
    const s = obj(f.numericFilter);
    const op = String(s.operation ?? '');
    if (!OPERATIONS.includes(op)) throw invalid(`${path}: invalid operation ${op || '(unset)'}.`);
    const v = numericValue(s.value, `${path}.numericFilter.value`);
    switch (op) {
      case 'LESS_THAN': return (get) => num(get) < v;
      case 'LESS_THAN_OR_EQUAL': return (get) => num(get) <= v;
      case 'GREATER_THAN': return (get) => num(get) > v;
      case 'GREATER_THAN_OR_EQUAL': return (get) => num(get) >= v;
      default: return (get) => num(get) === v;
    }
  }
  if (f.betweenFilter !== undefined) {
    const s = obj(f.betweenFilter);
    const from = numericValue(s.fromValue, `${path}.betweenFilter.fromValue`);
    const to = numericValue(s.toValue, `${path}.betweenFilter.toValue`);
    return (get) => num(get) >= from && num(get) <= to;
  }
  // emptyFilter matches "" and "(not set)".
  return (get) => {
    const v = str(get);
    return v === '' || v === '(not set)';
  };
}
