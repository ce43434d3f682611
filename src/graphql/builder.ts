// The Pothos builder: configuration only (context type, scalars); every type lives in its own module under ./types.
import SchemaBuilder from '@pothos/core';
import type { GraphQLContext } from './context.ts';

export interface SchemaTypes {
  Context: GraphQLContext;
  Scalars: {
    /** A calendar day `YYYY-MM-DD`. */
    Date: { Input: string; Output: string };
    /** Free-form JSON (dynamic metric maps and breakdown rows whose keys are metric/dimension names). */
    JSON: { Input: unknown; Output: unknown };
  };
}

export const builder = new SchemaBuilder<SchemaTypes>({});

builder.queryType({ description: 'Read-only access to projects, site metrics, search data and funnels.' });
builder.mutationType({ description: 'The few writes Siteline allows (funnel creation after an MCP confirmation).' });
