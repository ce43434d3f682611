// The shape of one MCP tool backed by a stored operation: name, model-facing text, the contract parameters it
// takes (schemas built from src/contract/parameters.ts, so names and descriptions match REST and OpenAPI),
// the operation and field it runs, and the response schema it returns.
import * as z from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { PARAMETERS, type ParameterInfo, type ParameterName } from '../../contract/parameters.ts';
import { withCachedJsonSchema } from '../cached-schema.ts';
import type { ViewName } from '../views/view-table.ts';

export interface ToolRow {
  name: string;
  title: string;
  /** Written for a model: what it answers, defaults, units, what to call first. */
  description: string;
  /** Contract parameters, in the order shown to clients. */
  args: readonly ParameterName[];
  /** Of `args`, the ones a call must give. */
  required: readonly ParameterName[];
  /** Stored operation (schema/operations) and the root field of its data that is the result. */
  operation: string;
  field?: string;
  output: z.ZodObject;
  /** The MCP Apps view that shows the result in hosts that render views. */
  view?: ViewName;
  /** The operation is still being written; the row is left out (not a boot failure) until it lands. */
  pending?: boolean;
}

export interface CompiledTool extends ToolRow {
  input: z.ZodObject;
  annotations: ToolAnnotations;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const CREATES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export function defineTool(row: ToolRow): ToolRow {
  return row;
}

/**
 * Input and output schemas are built once per process. Values are not restricted beyond their JSON type: enums
 * and defaults are advertised, but the resolver checks them, so a bad value gets the same message REST gives.
 */
export function compileTool(row: ToolRow): CompiledTool {
  const shape: Record<string, z.ZodType> = {};
  for (const name of row.args) {
    const schema = parameterSchema(PARAMETERS[name]);
    shape[name] = row.required.includes(name) ? schema : schema.optional();
  }
  return {
    ...row,
    input: withCachedJsonSchema(z.strictObject(shape)),
    output: withCachedJsonSchema(row.output),
    annotations: READ_ONLY,
  };
}

export function parameterSchema(info: ParameterInfo): z.ZodType {
  const base = info.type === 'integer' ? integerSchema(info) : info.type === 'boolean' ? z.boolean() : z.string();
  const meta: Record<string, unknown> = {};
  if (info.enum) meta.enum = [...info.enum];
  if (info.default !== undefined) meta.default = info.default;
  if (info.example !== undefined) meta.examples = [info.example];
  return base.describe(info.description).meta(meta);
}

/**
 * The real range, so the JSON Schema carries it instead of ±2^53. Values outside it still reach the resolver,
 * which words the error as REST does: the bounds are advertised in meta, not enforced by zod.
 */
function integerSchema(info: ParameterInfo): z.ZodType {
  const bounds: Record<string, number> = {};
  if (info.minimum !== undefined) bounds.minimum = info.minimum;
  if (info.maximum !== undefined) bounds.maximum = info.maximum;
  return z.int().meta(bounds);
}

/** Operations take the raw strings REST would pass, so resolvers parse (and word errors) identically. */
export function toVariables(args: Record<string, unknown>): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) if (value !== undefined && value !== null) variables[name] = String(value);
  return variables;
}
