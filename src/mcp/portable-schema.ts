// Rewrites a JSON Schema into the most portable spelling of the same contract, as strict MCP clients (the
// Inspector's --strict lint, model providers with a single-`type` dialect) expect: an empty schema under
// `additionalProperties` becomes `true`, and a `type` array becomes `anyOf` branches with one type each.

type Schema = Record<string, unknown>;

export function toPortableJsonSchema<T>(value: T): T {
  return rewrite(value) as T;
}

function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewrite);
  if (typeof value !== 'object' || value === null) return value;
  const out: Schema = {};
  for (const [key, child] of Object.entries(value as Schema)) {
    out[key] = key === 'additionalProperties' && isEmptySchema(child) ? true : rewrite(child);
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
