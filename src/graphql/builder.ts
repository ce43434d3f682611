// The Pothos builder: configuration only (context type, scalars, nullability); every type lives in its own module
// under ./types. Fields are non-null unless declared nullable: a field is nullable only when null means something
// (no comparison, an engine not connected) or when it can fail alone — a report on Project, whose error is then in
// `errors[]` next to the rest of the answer.
import SchemaBuilder from '@pothos/core';
import type { GraphQLContext } from './context.ts';

export interface SchemaTypes {
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    /** A calendar day `YYYY-MM-DD`. */
    Date: { Input: string; Output: string };
    /** An instant as ISO-8601 with its offset (`2026-11-25T13:00:00+01:00`, `2026-11-25T12:00:00.000Z`). */
    DateTime: { Input: string; Output: string };
    /** A period in the contract's grammar (`28days`, `last_month`, `custom_START_END`), checked when the query is read. */
    Period: { Input: string; Output: string };
    /** Free-form JSON: only the raw proxy's native request body. */
    JSON: { Input: unknown; Output: unknown };
  };
}

export const builder = new SchemaBuilder<SchemaTypes>({ defaultFieldNullability: false });

builder.queryType({ description: 'Read-only access to projects and their analytics, search data, insights and funnels.' });
builder.mutationType({ description: 'Internal: the few writes Siteline allows (funnel creation after an MCP confirmation); not on /api/graphql.' });

/**
 * Marks a root field as internal: the stored operations behind REST and MCP run it (raw parameter strings, parsed by
 * the reports), /api/graphql does not offer it (./public-schema.ts).
 */
export const INTERNAL = { extensions: { internal: true } } as const;
