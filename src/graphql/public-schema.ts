// The schema /api/graphql serves: the full schema without its internal root fields (marked INTERNAL in the builder,
// run only by the stored operations) and without a mutation root — /api/graphql only reads; the one write,
// createFunnel, is MCP's, after a confirmation. Types reachable only through what is left out (the dashboard's funnel
// preview, the mutation's input and answer) go with it, because a schema holds the types its roots reach.
import { GraphQLObjectType, GraphQLSchema, isObjectType, type GraphQLFieldConfigMap } from 'graphql';

const isInternal = (extensions: unknown) => (extensions as { internal?: unknown } | null | undefined)?.internal === true;

export function toPublicSchema(schema: GraphQLSchema): GraphQLSchema {
  assertMarksOnRootsOnly(schema);
  return new GraphQLSchema({ description: schema.description, query: queryWith(schema, (internal) => !internal), directives: schema.getDirectives() });
}

/** The internal part: the internal root fields and the mutation alone (and, reached through them, the types they use). */
export function toInternalPart(schema: GraphQLSchema): GraphQLSchema {
  return new GraphQLSchema({ query: queryWith(schema, (internal) => internal), mutation: schema.getMutationType(), directives: schema.getDirectives() });
}

/** A type is shared by both schemas, so only a root field can be internal. */
function assertMarksOnRootsOnly(schema: GraphQLSchema): void {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean));
  for (const type of Object.values(schema.getTypeMap())) {
    if (roots.has(type as GraphQLObjectType) || !isObjectType(type)) continue;
    const marked = Object.values(type.getFields()).find((field) => isInternal(field.extensions));
    if (marked) throw new Error(`${type.name}.${marked.name} is marked internal; only root fields can be (a type is shared by both schemas)`);
  }
}

function queryWith(schema: GraphQLSchema, keep: (internal: boolean) => boolean): GraphQLObjectType | undefined {
  const type = schema.getQueryType();
  if (!type) return undefined;
  const config = type.toConfig();
  const fields: GraphQLFieldConfigMap<unknown, unknown> = Object.fromEntries(Object.entries(config.fields).filter(([, field]) => keep(isInternal(field.extensions))));
  return Object.keys(fields).length === 0 ? undefined : new GraphQLObjectType({ ...config, fields });
}
