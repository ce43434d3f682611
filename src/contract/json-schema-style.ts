// Rewrites a generated JSON Schema into the spelling strict consumers expect, without changing what it accepts:
// a `type` array becomes `anyOf` branches with one type each (MCP clients with a single-`type` dialect, the
// Inspector's --strict lint), and an empty schema under `additionalProperties` (which allows anything, as no
// keyword does) becomes `true` for MCP or is left out for OpenAPI, where code generators turn any
// `additionalProperties` into an open-ended `[key: string]: unknown` index signature.

type Schema = Record<string, unknown>;

export interface SchemaStyle {
  /** What an empty `additionalProperties` schema becomes. */
  openObjects: 'true' | 'omit';
}

export function restyleJsonSchema<T>(value: T, style: SchemaStyle): T {
  return rewrite(value, style) as T;
}

function rewrite(value: unknown, style: SchemaStyle): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, style));
  if (typeof value !== 'object' || value === null) return value;
  const out: Schema = {};
  for (const [key, child] of Object.entries(value as Schema)) {
    if (key === 'additionalProperties' && isEmptySchema(child)) {
      if (style.openObjects === 'true') out[key] = true;
    } else {
      out[key] = rewrite(child, style);
    }
  }
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    return { ...rest, anyOf: (type as unknown[]).map((t) => ({ type: t })) };
  }
  return out;
}

function isEmptySchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
