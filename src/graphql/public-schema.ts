// The schema /api/graphql serves: the full schema without its internal root fields (marked INTERNAL in the builder,
// run only by the stored operations). Types reachable only through them (the dashboard's funnel preview, the
// createFunnel mutation and its input) are left out with them, because a schema holds the types its roots reach.
import { GraphQLObjectType, GraphQLSchema, isObjectType, type GraphQLFieldConfigMap } from 'graphql';

const isInternal = (extensions: unknown) => (extensions as { internal?: unknown } | null | undefined)?.internal === true;

export function toPublicSchema(schema: GraphQLSchema): GraphQLSchema {
  return rootsOnly(schema, (internal) => !internal);
}

/** The internal part: a schema of the internal root fields alone (and, reached through them, the types they use). */
export function toInternalPart(schema: GraphQLSchema): GraphQLSchema {
  return rootsOnly(schema, (internal) => internal);
}

function rootsOnly(schema: GraphQLSchema, keep: (internal: boolean) => boolean): GraphQLSchema {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean));
  for (const type of Object.values(schema.getTypeMap())) {
    if (roots.has(type as GraphQLObjectType) || !isObjectType(type)) continue;
    const marked = Object.values(type.getFields()).find((field) => isInternal(field.extensions));
    if (marked) throw new Error(`${type.name}.${marked.name} is marked internal; only root fields can be (a type is shared by both schemas)`);
  }
  return new GraphQLSchema({
    description: schema.description,
    query: rootWith(schema.getQueryType(), keep),
    mutation: rootWith(schema.getMutationType(), keep),
    directives: schema.getDirectives(),
  });
}

function rootWith(type: GraphQLObjectType | null | undefined, keep: (internal: boolean) => boolean): GraphQLObjectType | undefined {
  if (!type) return undefined;
  const config = type.toConfig();
  const fields: GraphQLFieldConfigMap<unknown, unknown> = Object.fromEntries(Object.entries(config.fields).filter(([, field]) => keep(isInternal(field.extensions))));
  return Object.keys(fields).length === 0 ? undefined : new GraphQLObjectType({ ...config, fields });
}
