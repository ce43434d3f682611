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
import './types/insights.ts';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';

export const schema = builder.toSchema();

/** The SDL checked in at schema/schema.graphql (sorted, so diffs stay small). */
export function printSdl(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
