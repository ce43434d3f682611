// The public graph is typed and described: no untyped JSON but the raw proxy's native request, no argument that is a
// closed set, a period, a number or a flag typed as String, no closed set of answers typed as String, keys and names
// non-null, and every figure described (with its unit). Read through introspection, as a client sees the schema.
import { getIntrospectionQuery, graphqlSync, type IntrospectionField, type IntrospectionQuery, type IntrospectionTypeRef } from 'graphql';
import { describe, expect, it } from 'vitest';
import { publicSchema, schema } from '../../src/graphql/schema.ts';

function namedType(ref: IntrospectionTypeRef): string | undefined {
  return 'ofType' in ref && ref.ofType ? namedType(ref.ofType) : 'name' in ref ? ref.name : undefined;
}

const introspect = (target: typeof schema) => graphqlSync({ schema: target, source: getIntrospectionQuery() }).data as unknown as IntrospectionQuery;
const introspection = introspect(publicSchema);
const objectTypes = introspection.__schema.types.filter((t) => !t.name.startsWith('__') && t.kind === 'OBJECT') as { name: string; fields: readonly IntrospectionField[] }[];
const everyField = objectTypes.flatMap((type) => type.fields.map((field) => ({ owner: type.name, field, path: `${type.name}.${field.name}` })));

/** Arguments whose values are a closed set, a period, a number or a flag: never String in the public graph. */
const TYPED_ARGUMENTS = new Set(['period', 'compare', 'sp', 'interval', 'brand', 'limit', 'offset', 'force', 'first', 'provider']);
/** Answers whose values are a closed set: an enum, never String. */
const CLOSED_ANSWERS = new Set(['cache', 'status', 'sources', 'sp', 'interval', 'direction', 'kind', 'match', 'type', 'createdVia', 'reason', 'brand', 'source']);
/** Fields that name or identify something: never null. */
const IDENTIFIERS = new Set(['key', 'name', 'project', 'code', 'cursor']);

describe('the public schema', () => {
  it('uses the JSON scalar only for the raw proxy’s native request', () => {
    const uses = everyField.flatMap(({ path, field }) => [
      ...(namedType(field.type) === 'JSON' ? [path] : []),
      ...field.args.filter((a) => namedType(a.type) === 'JSON').map((a) => `${path}(${a.name})`),
    ]);
    expect(uses).toEqual(['Query.rawProxy(request)']);
  });

  it('types every argument that is a period, a closed set, a number or a flag', () => {
    const untyped = everyField.flatMap(({ path, field }) => field.args.filter((a) => TYPED_ARGUMENTS.has(a.name) && namedType(a.type) === 'String').map((a) => `${path}(${a.name})`));
    expect(untyped).toEqual([]);
    const project = objectTypes.find((t) => t.name === 'Project')!;
    const argType = (field: string, arg: string) => namedType(project.fields.find((f) => f.name === field)!.args.find((a) => a.name === arg)!.type);
    expect([argType('summary', 'period'), argType('summary', 'compare'), argType('search', 'sp'), argType('searchTimeseries', 'interval')]).toEqual(['Period', 'CompareMode', 'SearchProvider', 'Interval']);
    expect([argType('breakdown', 'limit'), argType('changes', 'force'), argType('anomalies', 'interval'), argType('searchBreakdown', 'dimension')]).toEqual(['Int', 'Boolean', 'AnomalyInterval', 'SearchDimension']);
  });

  it('answers every closed set as an enum, in the words REST and MCP use', () => {
    // FieldInfo.type is the provider's own, open list of metric types (TYPE_INTEGER, TYPE_CURRENCY, …).
    const strings = everyField.filter(({ path, field }) => CLOSED_ANSWERS.has(field.name) && namedType(field.type) === 'String' && path !== 'FieldInfo.type');
    expect(strings.map((f) => f.path)).toEqual([]);
    const values = (name: string) => (introspection.__schema.types.find((t) => t.name === name) as unknown as { enumValues: { name: string }[] }).enumValues.map((v) => v.name).sort();
    expect(values('CompareMode')).toEqual(['none', 'previous', 'year']);
    expect(values('OpportunityKind')).toEqual(['cannibalisation', 'losing_clicks', 'lost_query', 'low_ctr']);
    expect(values('DataSourceStatus')).toEqual(['error', 'not_connected', 'ok', 'pending']);
  });

  it('never answers null for a key, a name or a list', () => {
    const nullableIds = everyField.filter(({ owner, field }) => owner !== 'Query' && IDENTIFIERS.has(field.name) && field.type.kind !== 'NON_NULL');
    expect(nullableIds.map((f) => f.path)).toEqual([]);
    const nullableLists = everyField.filter(({ field }) => field.type.kind === 'LIST' && !['pages'].includes(field.name));
    expect(nullableLists.map((f) => f.path)).toEqual([]);
  });

  it('describes every field, and every figure with its unit from the catalogue', () => {
    expect(everyField.filter(({ field }) => !field.description).map((f) => f.path)).toEqual([]);
    const project = objectTypes.find((t) => t.name === 'SiteSummary')!;
    expect(project.fields.find((f) => f.name === 'engagementRate')!.description).toMatch(/fraction 0–1/);
    expect(project.fields.find((f) => f.name === 'averageSessionDuration')!.description).toMatch(/seconds/);
  });

  it('has no field a public caller can never use: no mutation, no internal root field', () => {
    expect(introspection.__schema.mutationType).toBeNull();
    const query = objectTypes.find((t) => t.name === 'Query')!;
    expect(query.fields.map((f) => f.name).sort()).toEqual(['funnel', 'project', 'projects', 'rawProxy']);
    // The stored operations' schema still has them.
    const internal = introspect(schema);
    expect(internal.__schema.mutationType?.name).toBe('Mutation');
    expect((internal.__schema.types.find((t) => t.name === 'Query') as unknown as { fields: { name: string }[] }).fields.map((f) => f.name)).toEqual(expect.arrayContaining(['siteSummary', 'funnelPreview', 'rawProviderRequest']));
  });
});
