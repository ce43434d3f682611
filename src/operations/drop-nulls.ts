// GraphQL answers absent optional fields with null; the REST contract omits them (`propertyId?` is absent, not null),
// except where null is itself the answer (deltaPct when the previous value is 0, a search position no engine reported,
// and a compared number's previous and delta when the provider's history does not cover the comparison range).
const MEANINGFUL_NULLS = new Set(['deltaPct', 'position']);
const COMPARED_NULLS = new Set(['previous', 'delta']);

/** `{value, previous, delta, deltaPct}`: its nulls are answers. */
function isCompared(value: Record<string, unknown>): boolean {
  return 'value' in value && 'deltaPct' in value;
}

export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const compared = isCompared(value as Record<string, unknown>);
  for (const [key, inner] of Object.entries(value)) {
    if (inner === null && !MEANINGFUL_NULLS.has(key) && !(compared && COMPARED_NULLS.has(key))) continue;
    out[key] = dropNulls(inner);
  }
  return out;
}
