// Memoised JSON Schema conversion for the zod schemas MCP serves: the SDK converts every tool's input and
// output schema on each fresh McpServer (one per request), so the conversion is done once per process instead,
// in the portable spelling strict clients accept without warnings.
import type * as z from 'zod';
import { restyleJsonSchema } from '../contract/json-schema-style.ts';

interface JsonSchemaOptions {
  target: string;
  libraryOptions?: Record<string, unknown>;
}

/** Returns the same schema, its `~standard.jsonSchema` converters memoised per (io, target). */
export function withCachedJsonSchema<T extends z.ZodType>(schema: T): T {
  const standard = schema['~standard'] as z.ZodType['~standard'] & {
    jsonSchema: { input(options: JsonSchemaOptions): Record<string, unknown>; output(options: JsonSchemaOptions): Record<string, unknown> };
  };
  const cache = new Map<string, Record<string, unknown>>();
  const memo = (io: 'input' | 'output') => (options: JsonSchemaOptions) => {
    const key = `${io}\0${options.target}\0${JSON.stringify(options.libraryOptions ?? null)}`;
    let converted = cache.get(key);
    if (!converted) {
      converted = restyleJsonSchema(standard.jsonSchema[io](options), { openObjects: 'true' });
      cache.set(key, converted);
    }
    return converted;
  };
  (schema as { '~standard': unknown })['~standard'] = { ...standard, jsonSchema: { input: memo('input'), output: memo('output') } };
  return schema;
}
