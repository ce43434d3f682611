// The GraphQL schema: imports every type module (each registers itself on the builder), then builds.
import './types/scalars.ts';
import './types/data-source.ts';
import './types/project.ts';
import './types/funnel.ts';
import './types/funnel-mutations.ts';
import './types/envelope.ts';
import './types/site-summary.ts';
import './types/search-summary.ts';
import './types/search-timeseries.ts';
import './types/search-breakdown.ts';
import './types/landing-pages.ts';
import './types/funnel-results.ts';
import './types/funnel-preview.ts';
import './types/observed.ts';
import './types/raw-proxy.ts';
import './types/site-metrics.ts';
import './types/project-data.ts';
import './types/insights.ts';
import './types/project-insights.ts';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import { toPublicSchema } from './public-schema.ts';

/** Everything, internal root fields included: what the stored operations run against. */
export const schema = builder.toSchema();

/** What /api/graphql serves: the schema without its internal root fields. */
export const publicSchema = toPublicSchema(schema);

const print = (target: GraphQLSchema) => `${printSchema(lexicographicSortSchema(target))}\n`;

/** The SDL checked in at schema/schema.graphql (sorted, so diffs stay small): the public schema, what clients generate from. */
export function printSdl(): string {
  return print(publicSchema);
}

/** The SDL checked in at schema/internal.graphql: the full schema the stored operations are validated against. */
export function printInternalSdl(): string {
  return print(schema);
}
