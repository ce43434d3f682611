// A typed client for the queries docs/graphql.md shows, generated from the schema /api/graphql serves (introspected,
// as a client's codegen reads it) with GraphQL Code Generator's typescript and typescript-operations plugins, in
// process, and type-checked with tsc --strict: it compiles, holds no `any` or `unknown`, and a value is `| null` only
// where the schema says null means something — a report that can fail alone, a comparison's previous, a position
// without impressions, an engine not connected, a value that names no country. Keys, names and figures never are.
import { codegen } from '@graphql-codegen/core';
import * as typescriptPlugin from '@graphql-codegen/typescript';
import * as operationsPlugin from '@graphql-codegen/typescript-operations';
import { buildClientSchema, getIntrospectionQuery, Kind, parse, printSchema, type IntrospectionQuery, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCurl } from '../../scripts/docs/curl-command.ts';
import { readDoc } from '../../scripts/docs/doc-files.ts';
import { findExamples } from '../../scripts/docs/markdown-examples.ts';
import { MONTH_OVER_MONTH_QUERY, PORTFOLIO_QUERY } from '../../src/graphql/portfolio-query.ts';
import { compileStrict, walkType } from '../helpers/generated-types.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

/** Where null is an answer: report fields (they fail alone) and values whose null means something. */
const MEANINGFUL_NULLS = new Set(['summary', 'search', 'countries', 'breakdown', 'searchBreakdown', 'results', 'project', 'previous', 'delta', 'deltaPct', 'position', 'country', 'engine1', 'engine2']);

let rt: TestRuntime;
let served: IntrospectionQuery;

beforeAll(async () => {
  rt = await createTestRuntime();
  const { key } = await createAccountWithKey(rt, { email: 'codegen@example.com', projects: [] });
  const res = await rt.request('/api/graphql', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
  served = ((await res.json()) as { data: IntrospectionQuery }).data;
});
afterAll(() => rt.dispose());

/** The GraphQL documents of the curl examples in docs/graphql.md. */
async function documentedQueries(): Promise<string[]> {
  const file = 'docs/graphql.md';
  return findExamples(file, await readDoc(file))
    .map((example) => parseCurl(example.command, { SITELINE_KEY: 'sl_live_example' }))
    .filter((request) => request.url.endsWith('/api/graphql') && request.body !== undefined)
    .map((request) => (JSON.parse(request.body!) as { query: string }).query);
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

async function generateClient(documents: string[]): Promise<string> {
  return codegen({
    schema: parse(printSchema(buildClientSchema(served))),
    documents: documents.map((text, i) => ({ document: parse(text), location: `docs-${i}.graphql` })),
    filename: 'client.ts',
    config: { strictScalars: true, enumsAsTypes: true, scalars: { Date: 'string', DateTime: 'string', Period: 'string', JSON: 'unknown' } },
    plugins: [{ typescript: {} }, { typescriptOperations: {} }],
    pluginMap: { typescript: typescriptPlugin, typescriptOperations: operationsPlugin },
  });
}

describe('a typed client generated from the served schema for the documented queries', () => {
  it('covers every documented query, the portfolio and month-over-month ones the tests hold to their call counts among them', async () => {
    const queries = await documentedQueries();
    const names = queries.map((q) => (parse(q).definitions[0] as OperationDefinitionNode).name?.value);
    expect(names).toEqual(['Portfolio', 'MonthOverMonth', 'FunnelAndSearch', 'Devices', 'Countries']);
    expect(queries.map(squeeze)).toEqual(expect.arrayContaining([squeeze(PORTFOLIO_QUERY), squeeze(MONTH_OVER_MONTH_QUERY)]));
  });

  it('compiles under tsc --strict, with no any or unknown, and null only where the schema says it means something', async () => {
    const queries = await documentedQueries();
    const generated = await generateClient(queries);
    const compiled = compileStrict({ 'client.ts': generated });
    expect(compiled.diagnostics).toEqual([]);
    // The checker does report what strict mode forbids (so an empty list above means something).
    expect(compileStrict({ 'probe.ts': 'export function f(x) { return x; }' }).diagnostics.join()).toMatch(/implicitly has an 'any' type/);
    for (const query of queries) {
      const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      const found = walkType(compiled.checker, compiled.typeOf('client.ts', `${operation.name!.value}Query`));
      expect(found.untyped, operation.name!.value).toEqual([]);
      expect(found.openRecords, operation.name!.value).toEqual([]);
      const unexpected = found.nullable.filter((path) => !MEANINGFUL_NULLS.has(path.replace(/\[\]/g, '').split('.').at(-1)!));
      expect(unexpected, operation.name!.value).toEqual([]);
    }
    // The figures themselves are never nullable: the portfolio's sessions value is a number.
    const portfolio = walkType(compiled.checker, compiled.typeOf('client.ts', 'PortfolioQuery'));
    expect(portfolio.nullable).toEqual(
      expect.arrayContaining(['projects.nodes[].summary', 'projects.nodes[].summary.sessions.previous', 'projects.nodes[].countries.rows[].country']),
    );
    expect(portfolio.nullable).not.toContain('projects.nodes[].key');
    expect(portfolio.nullable).not.toContain('projects.nodes[].summary.sessions.value');
  });
});
