// The Pothos builder: configuration only (context type, scalars); every type lives in its own module under ./types.
import SchemaBuilder from '@pothos/core';
import type { GraphQLContext } from './context.ts';

export interface SchemaTypes {
  Context: GraphQLContext;
  Scalars: {
    /** A calendar day `YYYY-MM-DD`. */
    Date: { Input: string; Output: string };
    /** A period in the contract's grammar (`28days`, `custom_START_END`), checked when the query is read. */
    Period: { Input: string; Output: string };
    /** Free-form JSON: only the raw proxies' native request bodies. */
    JSON: { Input: unknown; Output: unknown };
  };
}

export const builder = new SchemaBuilder<SchemaTypes>({});

builder.queryType({ description: 'Read-only access to projects, site metrics, search data and funnels.' });
builder.mutationType({ description: 'The few writes Siteline allows (funnel creation after an MCP confirmation).' });
