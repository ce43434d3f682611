// A typed client generated from the served OpenAPI document with openapi-typescript (in process), type-checked with
// tsc --strict: Siteline's own objects are closed — named properties, no `Record<string, …>` or
// `[key: string]: unknown` — closed sets are unions of their words, compared figures come as one shape per compare
// mode, and CSV answers are declared. Only the providers' own JSON (the raw proxies, a provider's error body) is free.
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileStrict, walkType, type Compiled } from '../helpers/generated-types.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let compiled: Compiled;
let schemaNames: string[];

beforeAll(async () => {
  rt = await createTestRuntime();
  const document = (await (await rt.request('/api/v1/openapi.json')).json()) as { components: { schemas: Record<string, unknown> } };
  schemaNames = Object.keys(document.components.schemas);
  const source = astToString(await openapiTS(document as never));
  // What a client names: each schema, and each operation's JSON and CSV answers.
  const probes = [
    ...schemaNames.map((name, i) => `export type Schema${i} = components['schemas']['${name}'];`),
    "export type Summary = paths['/metrics/{projectKey}/summary']['get']['responses'][200]['content']['application/json'];",
    "export type TimeseriesCsv = paths['/metrics/{projectKey}/timeseries']['get']['responses'][200]['content']['text/csv'];",
    "export type Cache = components['schemas']['Meta']['cache'];",
    "export type SummaryMetrics = components['schemas']['SiteSummaryResponse']['metrics'];",
  ];
  compiled = compileStrict({ 'api.ts': source, 'probe.ts': `import type { components, paths } from './api';\n${probes.join('\n')}\n` });
});
afterAll(() => rt.dispose());

const typeText = (alias: string) => compiled.checker.typeToString(compiled.typeOf('probe.ts', alias), undefined, ts.TypeFormatFlags.NoTruncation);

describe('a typed client generated from the served OpenAPI document', () => {
  it('compiles under tsc --strict', () => {
    expect(compiled.diagnostics).toEqual([]);
    expect(schemaNames).toEqual(expect.arrayContaining(['SiteSummaryResponse', 'SearchSummaryResponse', 'Meta', 'Compared']));
  });

  it('has no open record in any of Siteline’s own objects, and nothing untyped but a provider’s error body', () => {
    const open: string[] = [];
    const untyped: string[] = [];
    schemaNames.forEach((name, i) => {
      const found = walkType(compiled.checker, compiled.typeOf('probe.ts', `Schema${i}`));
      open.push(...found.openRecords.map((path) => `${name}.${path}`));
      untyped.push(...found.untyped.map((path) => `${name}.${path}`));
    });
    expect(open).toEqual([]);
    expect(untyped).toEqual(['Problem.upstream']);
  });

  it('types closed sets as their words, byProvider and the quota with named properties', () => {
    expect(typeText('Cache')).toBe('"hit" | "miss" | "stale" | "refresh"');
    const meta = walkType(compiled.checker, compiled.typeOf('probe.ts', `Schema${schemaNames.indexOf('Meta')}`));
    expect(meta.openRecords).toEqual([]);
    const search = typeText(`Schema${schemaNames.indexOf('SearchSummaryResponse')}`);
    expect(search).toMatch(/byProvider\?: \{ engine1\?: .*engine2\?: /);
    expect(search).toMatch(/sp: "engine1" \| "engine2" \| "all"/);
  });

  it('names every summary metric, and compared figures come as one shape per compare mode', () => {
    const metrics = typeText('SummaryMetrics');
    // Two shapes, each with every standard metric named: numbers, or Compared objects.
    expect(metrics).toMatch(/^\{ activeUsers: number; .*keyEvents: number; \} \| \{ activeUsers: \{ value: number \| null;/);
    expect(typeText('Summary')).toContain('metrics:');
  });

  it('declares the CSV answer of a route that has one', () => {
    expect(typeText('TimeseriesCsv')).toBe('string');
  });
});
