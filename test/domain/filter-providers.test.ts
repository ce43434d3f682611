import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { toAnalyticsFilterExpression } from '../../src/domain/filter-analytics.ts';
import { compileFilter, matchesFilter } from '../../src/domain/filter-match.ts';
import { toSearchConsoleFilterGroups } from '../../src/domain/filter-search-console.ts';
import { type FilterAst, type FilterCondition, parseFilter } from '../../src/domain/filter.ts';
import { expectAppError } from './expect-app-error.ts';

const parse = (raw: string): FilterAst => parseFilter(raw) as FilterAst;
const sf = (fieldName: string, matchType: string, value: string) => ({
  filter: { fieldName, stringFilter: { matchType, value, caseSensitive: false } },
});

describe('toAnalyticsFilterExpression', () => {
  it.each([
    ['country==Germany', sf('country', 'EXACT', 'Germany')],
    ['country!=Germany', { notExpression: sf('country', 'EXACT', 'Germany') }],
    ['pagePath=@blog', sf('pagePath', 'CONTAINS', 'blog')],
    ['pagePath!@blog', { notExpression: sf('pagePath', 'CONTAINS', 'blog') }],
    ['pagePath=~^/blog/\\d+$', sf('pagePath', 'PARTIAL_REGEXP', '^/blog/\\d+$')],
    ['pagePath!~\\.pdf$', { notExpression: sf('pagePath', 'PARTIAL_REGEXP', '\\.pdf$') }],
    [
      'country==Germany,country==France;deviceCategory!=tablet',
      {
        andGroup: {
          expressions: [
            { orGroup: { expressions: [sf('country', 'EXACT', 'Germany'), sf('country', 'EXACT', 'France')] } },
            { notExpression: sf('deviceCategory', 'EXACT', 'tablet') },
          ],
        },
      },
    ],
    ['city==Berlin,country==France', { orGroup: { expressions: [sf('city', 'EXACT', 'Berlin'), sf('country', 'EXACT', 'France')] } }],
  ])('%j', (raw, expected) => {
    expect(toAnalyticsFilterExpression(parse(raw))).toStrictEqual(expected);
  });
});

describe('toSearchConsoleFilterGroups', () => {
  it.each([
    ['query==shoes', [{ dimension: 'query', operator: 'equals', expression: 'shoes' }]],
    ['query!=shoes', [{ dimension: 'query', operator: 'notEquals', expression: 'shoes' }]],
    ['page=@/blog/', [{ dimension: 'page', operator: 'contains', expression: '/blog/' }]],
    ['page!@/blog/', [{ dimension: 'page', operator: 'notContains', expression: '/blog/' }]],
    ['query=~^run', [{ dimension: 'query', operator: 'includingRegex', expression: '(?i)^run' }]],
    ['query!~jobs?', [{ dimension: 'query', operator: 'excludingRegex', expression: '(?i)jobs?' }]],
    ['country==Germany', [{ dimension: 'country', operator: 'equals', expression: 'deu' }]],
    ['country!=de', [{ dimension: 'country', operator: 'notEquals', expression: 'deu' }]],
    ['device==Mobile', [{ dimension: 'device', operator: 'equals', expression: 'mobile' }]],
    [
      'country==deu;query!@jobs',
      [
        { dimension: 'country', operator: 'equals', expression: 'deu' },
        { dimension: 'query', operator: 'notContains', expression: 'jobs' },
      ],
    ],
    ['query==a.b,query==c', [{ dimension: 'query', operator: 'includingRegex', expression: '(?i)^a\\.b$|^c$' }]],
    ['query=@run,query=~^shoe', [{ dimension: 'query', operator: 'includingRegex', expression: '(?i)run|(?:^shoe)' }]],
    ['country==Germany,country==France', [{ dimension: 'country', operator: 'includingRegex', expression: '(?i)^deu$|^fra$' }]],
  ])('%j', (raw, filters) => {
    expect(toSearchConsoleFilterGroups(parse(raw))).toStrictEqual([{ groupType: 'and', filters }]);
  });

  it.each([
    ['query==a,page=@b', 'different dimensions', '"query==a,page=@b"'],
    ['query!=a,query!=b', 'negated conditions', '"query!=a,query!=b"'],
    ['query==a,query!@b', 'negated conditions', '"query==a,query!@b"'],
    ['date==2026-01-01', 'cannot filter on "date"', '"date==2026-01-01"'],
    ['deviceCategory==mobile', 'cannot filter on "deviceCategory"', '"deviceCategory==mobile"'],
  ])('rejects %j (%s) naming engine1', (raw, problem, quoted) => {
    expectAppError(() => toSearchConsoleFilterGroups(parse(raw), { raw }), {
      code: 'invalid_parameter',
      param: 'filter',
      provider: 'engine1',
      includes: ['not supported by engine1', problem, quoted],
    });
  });

  it('an OR turned into one regex matches exactly what the OR matches (case-insensitively)', () => {
    const value = fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom('a', 'B', '.', '*', '(', ' ', 'é', '|', '$') });
    const positive = fc.record({ operator: fc.constantFrom<FilterCondition['operator']>('==', '=@'), value });
    const row = fc.string({ maxLength: 6, unit: fc.constantFrom('a', 'A', 'b', 'B', '.', '*', '(', ' ', 'é', 'É', '|', '$') });
    fc.assert(
      fc.property(fc.array(positive, { minLength: 2, maxLength: 4 }), row, (conds, text) => {
        const ast: FilterAst = { all: [{ any: conds.map((p) => ({ dimension: 'query', operator: p.operator, value: p.value })) }] };
        const [group] = toSearchConsoleFilterGroups(ast);
        const filter = group?.filters[0];
        if (filter?.operator !== 'includingRegex') return false;
        return RE2JS.compile(filter.expression).test(text) === matchesFilter(ast, { query: text });
      }),
      { numRuns: 500 },
    );
  });
});

describe('matchesFilter (local, engine2)', () => {
  const row = { query: 'Running Shoes', page: 'https://example.com/blog/42' };

  it.each([
    ['query==running shoes', true],
    ['query==running', false],
    ['query!=running shoes', false],
    ['query=@SHOES', true],
    ['query!@shoes', false],
    ['page=~/blog/\\d+$', true],
    ['page=~^/blog', false],
    ['page!~\\.pdf$', true],
    ['query=~^run', true],
    ['query==x,query=@shoe', true],
    ['query==x,query=@boot', false],
    ['query=@shoe;page=@/blog/', true],
    ['query=@shoe;page=@/shop/', false],
    ['country==deu', false],
    ['country!=deu', true],
  ])('%j → %s', (raw, expected) => {
    expect(matchesFilter(parse(raw), row)).toBe(expected);
  });

  it('no filter passes every row', () => {
    expect(compileFilter(undefined)({})).toBe(true);
  });

  it('a negated operator is exactly the complement', () => {
    const pairs = [
      ['==', '!='],
      ['=@', '!@'],
      ['=~', '!~'],
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...pairs), fc.constantFrom('a', 'ab', 'A.', '^a', 'b$'), fc.string({ maxLength: 5, unit: fc.constantFrom('a', 'A', 'b', '.') }), ([pos, neg], value, text) => {
        const yes = matchesFilter({ all: [{ any: [{ dimension: 'query', operator: pos, value }] }] }, { query: text });
        const no = matchesFilter({ all: [{ any: [{ dimension: 'query', operator: neg, value }] }] }, { query: text });
        return yes !== no;
      }),
    );
  });
});
