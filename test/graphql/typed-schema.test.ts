// The graph is typed: no field or argument is the untyped JSON scalar except where a provider's native body is the
// point (the raw proxy's request). Read through introspection, as a client sees the schema.
import { getIntrospectionQuery, graphqlSync, type IntrospectionQuery, type IntrospectionTypeRef } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';

const RAW_PROXY_USES = ['Query.rawProxy(request)'];

function namedType(ref: IntrospectionTypeRef): string | undefined {
  return 'ofType' in ref && ref.ofType ? namedType(ref.ofType) : 'name' in ref ? ref.name : undefined;
}

function jsonUses(introspection: IntrospectionQuery): string[] {
  const uses: string[] = [];
  for (const type of introspection.__schema.types) {
    if (type.name.startsWith('__')) continue;
    if (type.kind === 'OBJECT' || type.kind === 'INTERFACE') {
      for (const field of type.fields) {
        if (namedType(field.type) === 'JSON') uses.push(`${type.name}.${field.name}`);
        for (const arg of field.args) if (namedType(arg.type) === 'JSON') uses.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (type.kind === 'INPUT_OBJECT') for (const field of type.inputFields) if (namedType(field.type) === 'JSON') uses.push(`${type.name}.${field.name}`);
  }
  return uses.sort();
}

describe('the introspected schema', () => {
  const result = graphqlSync({ schema, source: getIntrospectionQuery() });
  const introspection = result.data as unknown as IntrospectionQuery;

  it('uses the JSON scalar only for the raw proxy', () => {
    expect(result.errors).toBeUndefined();
    expect(jsonUses(introspection)).toEqual(RAW_PROXY_USES);
  });

  it('types the parameters of Project’s data fields: Period scalar and enums', () => {
    const project = introspection.__schema.types.find((t) => t.name === 'Project');
    const fields = project && 'fields' in project ? project.fields : [];
    const argType = (field: string, arg: string) => {
      const found = fields.find((f) => f.name === field)?.args.find((a) => a.name === arg);
      return found ? namedType(found.type) : undefined;
    };
    expect(argType('summary', 'period')).toBe('Period');
    expect(argType('summary', 'compare')).toBe('CompareMode');
    expect(argType('search', 'sp')).toBe('SearchProvider');
    expect(argType('searchTimeseries', 'interval')).toBe('Interval');
    expect(argType('breakdown', 'limit')).toBe('Int');
  });
});
