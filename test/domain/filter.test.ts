import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertFilterDimensions,
  FILTER_OPERATORS,
  type FilterAst,
  type FilterCondition,
  filterDimensions,
  formatFilter,
  MAX_FILTER_CONDITIONS,
  parseFilter,
} from '../../src/domain/filter.ts';
import { expectAppError } from './expect-app-error.ts';

const c = (dimension: string, operator: FilterCondition['operator'], value: string): FilterCondition => ({ dimension, operator, value });
const and = (...clauses: FilterCondition[][]): FilterAst => ({ all: clauses.map((any) => ({ any })) });

describe('parseFilter', () => {
  it.each([
    ['country==Germany', and([c('country', '==', 'Germany')])],
    ['country!=Germany', and([c('country', '!=', 'Germany')])],
    ['pagePath=@/blog/', and([c('pagePath', '=@', '/blog/')])],
    ['pagePath!@/admin', and([c('pagePath', '!@', '/admin')])],
    ['pagePath=~^/blog/\\d+$', and([c('pagePath', '=~', '^/blog/\\d+$')])],
    ['pagePath!~\\.pdf$', and([c('pagePath', '!~', '\\.pdf$')])],
    ['a==1,a==2;b==3', and([c('a', '==', '1'), c('a', '==', '2')], [c('b', '==', '3')])],
    ['a==1;b==2,b==3;c=@x', and([c('a', '==', '1')], [c('b', '==', '2'), c('b', '==', '3')], [c('c', '=@', 'x')])],
    ['query==a\\,b', and([c('query', '==', 'a,b')])],
    ['query==a\\;b\\\\c', and([c('query', '==', 'a;b\\c')])],
    ['query==running shoes ', and([c('query', '==', 'running shoes ')])],
    ['country==Germany; deviceCategory==mobile', and([c('country', '==', 'Germany')], [c('deviceCategory', '==', 'mobile')])],
    ['customEvent:plan==pro', and([c('customEvent:plan', '==', 'pro')])],
    ['pageTitle==a==b', and([c('pageTitle', '==', 'a==b')])],
    ['query==Straße 東京', and([c('query', '==', 'Straße 東京')])],
  ])('%j', (raw, expected) => {
    expect(parseFilter(raw)).toStrictEqual(expected);
  });

  it('absent or empty is no filter', () => {
    expect(parseFilter(undefined)).toBeUndefined();
    expect(parseFilter('')).toBeUndefined();
  });

  it.each([
    ['country=Germany', 8, 'expected an operator (==, !=, =@, !@, =~, !~) after "country", found "=G"'],
    ['country', 8, 'found the end'],
    ['country Germany', 8, 'expected an operator'],
    ['==Germany', 1, 'expected a dimension name, found "="'],
    ['country==', 10, 'expected a value after "country=="'],
    ['a==1,', 6, 'expected a condition after ","'],
    ['a==1;', 6, 'expected a condition after ";"'],
    ['a==1;;b==2', 6, 'expected a dimension name, found ";"'],
    ['a==1,,b==2', 6, 'expected a dimension name, found ","'],
    ['pagePath=~(blog', 11, '"(blog" is not a valid RE2 regular expression (missing closing )'],
    ['pagePath=~(?<=x)y', 11, 'not a valid RE2 regular expression'],
    ['pagePath!~a**', 11, 'not a valid RE2 regular expression'],
    ['query==abc\\', 11, 'a backslash must be followed by the character it escapes'],
    ['   ', 4, 'expected a dimension name'],
    ['1abc==x', 1, 'expected a dimension name, found "1"'],
  ])('rejects %j at character %i', (raw, position, problem) => {
    expectAppError(() => parseFilter(raw), {
      code: 'invalid_parameter',
      param: 'filter',
      includes: [JSON.stringify(raw), problem, `at character ${position}.`],
    });
  });

  it('checks dimensions against an allowed list when given one', () => {
    expect(parseFilter('country==Germany', 'filter', ['country'])).toStrictEqual(and([c('country', '==', 'Germany')]));
    expectAppError(() => parseFilter('contry==Germany ', 'filter', ['country', 'city']), {
      code: 'invalid_parameter',
      param: 'filter',
      includes: ['"contry"', '"contry==Germany "', 'Did you mean "country"'],
    });
  });

  it('names the parameter it parses', () => {
    expectAppError(() => parseFilter('x', 'where'), { code: 'invalid_parameter', param: 'where' });
  });

  it('bounds size and number of conditions', () => {
    const many = Array.from({ length: MAX_FILTER_CONDITIONS + 1 }, (_, i) => `a==${i}`).join(';');
    expectAppError(() => parseFilter(many), { code: 'invalid_parameter', includes: [`more than ${MAX_FILTER_CONDITIONS} conditions`] });
    expectAppError(() => parseFilter(`a==${'x'.repeat(3000)}`), { code: 'invalid_parameter', includes: ['longer than 2000 characters', '…'] });
  });
});

describe('formatFilter round-trips', () => {
  const dimension = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}(:[A-Za-z0-9_]{1,8})?$/);
  const plainOperator = fc.constantFrom<FilterCondition['operator']>('==', '!=', '=@', '!@');
  const regexOperator = fc.constantFrom<FilterCondition['operator']>('=~', '!~');
  const text = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'B', ' ', ',', ';', '\\', '=', '!', '~', '@', 'é', '東', '-', '.') });
  const regex = fc.constantFrom('^/blog/\\d+$', 'a|b', '(?i)shoe', '\\.pdf$', '[,;]x', 'x\\\\y');
  const condition = fc
    .oneof(fc.record({ dimension, operator: plainOperator, value: text }), fc.record({ dimension, operator: regexOperator, value: regex }))
    .map((r): FilterCondition => ({ dimension: r.dimension, operator: r.operator, value: r.value }));
  const ast: fc.Arbitrary<FilterAst> = fc
    .array(fc.array(condition, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 })
    .map((clauses) => ({ all: clauses.map((any) => ({ any })) }));

  it('parseFilter(formatFilter(ast)) equals ast', () => {
    fc.assert(
      fc.property(ast, (a) => {
        expect(parseFilter(formatFilter(a))).toStrictEqual(a);
      }),
      { numRuns: 500 },
    );
  });

  it('formatFilter(parseFilter(text)) is a fixed point', () => {
    fc.assert(
      fc.property(ast, (a) => {
        const once = formatFilter(a);
        const parsed = parseFilter(once);
        return parsed !== undefined && formatFilter(parsed) === once;
      }),
    );
  });

  it('every operator is covered', () => {
    for (const op of FILTER_OPERATORS) expect(parseFilter(`a${op}x`)?.all[0]?.any[0]?.operator).toBe(op);
  });
});

describe('filter dimensions', () => {
  const ast = parseFilter('country==Germany,country==France;deviceCategory==mobile') as FilterAst;

  it('lists distinct dimensions in order', () => {
    expect(filterDimensions(ast)).toEqual(['country', 'deviceCategory']);
  });

  it('accepts allowed dimensions', () => {
    expect(() => assertFilterDimensions(ast, ['country', 'deviceCategory', 'city'])).not.toThrow();
  });

  it('rejects an unknown dimension with close matches, quoting the filter as written', () => {
    const typo = parseFilter('contry==Germany') as FilterAst;
    expectAppError(() => assertFilterDimensions(typo, ['country', 'city', 'continent'], { raw: 'contry==Germany' }), {
      code: 'invalid_parameter',
      param: 'filter',
      includes: ['Unknown dimension "contry"', '"contry==Germany"', 'Did you mean "country"'],
    });
  });

  it('names the provider when a provider cannot filter on a dimension', () => {
    const byCountry = parseFilter('country==deu') as FilterAst;
    expectAppError(() => assertFilterDimensions(byCountry, ['query', 'page'], { provider: 'engine2' }), {
      code: 'invalid_parameter',
      param: 'filter',
      provider: 'engine2',
      includes: ['not supported by engine2', '"country"', 'query, page'],
    });
  });
});
