// Stored operations are parsed and validated once at boot; a broken one stops the process with every problem listed.
import { describe, expect, it } from 'vitest';
import { createStoredOperationPipeline, GRAPHQL_LIMITS } from '../../src/graphql/pipeline.ts';
import { schema } from '../../src/graphql/schema.ts';
import { buildOperationRegistry, loadOperationRegistry, OperationRegistryError } from '../../src/operations/registry.ts';

describe('operation registry', () => {
  it('loads every checked-in operation with the fragments it uses', () => {
    const registry = loadOperationRegistry(schema);
    expect(registry.get('ProjectsList')?.document.definitions.map((d) => d.kind)).toEqual(['OperationDefinition', 'FragmentDefinition']);
    expect([...registry.keys()]).toContain('Project');
  });

  it('rejects an operation that does not validate against the schema, naming the file', () => {
    const sources = [{ file: 'Broken.graphql', text: 'query Broken { project(key: "x") { nope } }' }];
    expect(() => buildOperationRegistry(schema, sources)).toThrowError(OperationRegistryError);
    try {
      buildOperationRegistry(schema, sources);
    } catch (error) {
      expect((error as OperationRegistryError).problems).toEqual([expect.stringMatching(/^Broken\.graphql: Cannot query field "nope" on type "Project"/)]);
    }
  });

  it('rejects syntax errors, anonymous and duplicate operations, and unknown fragments, all at once', () => {
    const sources = [
      { file: 'a.graphql', text: 'query {' },
      { file: 'b.graphql', text: '{ projects { key } }' },
      { file: 'c.graphql', text: 'query Same { projects { key } }' },
      { file: 'd.graphql', text: 'query Same { projects { key } }' },
      { file: 'e.graphql', text: 'query UsesMissing { projects { ...Missing } }' },
    ];
    try {
      buildOperationRegistry(schema, sources);
      expect.unreachable();
    } catch (error) {
      const problems = (error as OperationRegistryError).problems.join('\n');
      expect(problems).toMatch(/a\.graphql: Syntax Error/);
      expect(problems).toMatch(/b\.graphql: must contain exactly one named operation/);
      expect(problems).toMatch(/d\.graphql: duplicate operation name Same/);
      expect(problems).toMatch(/e\.graphql: unknown fragment Missing/);
    }
  });

  it('holds stored operations to the limits of the GraphQL pipeline at boot, as /api/graphql is', () => {
    const aliases = Array.from({ length: GRAPHQL_LIMITS.maxAliases + 1 }, (_, i) => `p${i}: projects { totalCount }`).join(' ');
    const sources = [{ file: 'Wide.graphql', text: `query Wide { ${aliases} }` }];
    const pipeline = createStoredOperationPipeline(schema);
    // Plain validation accepts it; the pipeline's validation does not.
    expect(buildOperationRegistry(schema, sources).get('Wide')?.name).toBe('Wide');
    try {
      buildOperationRegistry(schema, sources, [], pipeline.validate);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(OperationRegistryError);
      expect((error as OperationRegistryError).problems).toEqual([expect.stringMatching(/^Wide\.graphql: .*aliases/i)]);
    }
  });

  it('accepts every checked-in operation under the limits of the pipeline', () => {
    const pipeline = createStoredOperationPipeline(schema);
    expect(loadOperationRegistry(schema, undefined, pipeline.validate).size).toBe(loadOperationRegistry(schema).size);
  });
});
