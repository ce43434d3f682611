// Comparing two answers to the same request: the first place they differ, as a path, or undefined. A field one
// side leaves out and the other gives as null is the same answer (REST omits what GraphQL selects as null).
type Json = unknown;

/** Fields that say when and how an answer was produced, not what it says. */
const VOLATILE_META = ['cache', 'fetchedAt', 'quota'];

/** The answer without its volatile meta fields. */
export function withoutVolatile(body: Record<string, any>): Record<string, any> {
  if (!body.meta) return body;
  const meta = Object.fromEntries(Object.entries(body.meta as Record<string, unknown>).filter(([k]) => !VOLATILE_META.includes(k)));
  return { ...body, meta };
}

export interface DiffOptions {
  /** Only the keys of `expected` are compared (it is the narrower selection, e.g. a GraphQL query). */
  onlyExpectedKeys?: boolean;
  /** Relative tolerance for numbers. */
  tolerance?: number;
}

export function firstDifference(actual: Json, expected: Json, options: DiffOptions = {}, path = ''): string | undefined {
  const a = actual ?? null;
  const e = expected ?? null;
  if (a === null || e === null) return a === e ? undefined : `${path || '.'}: expected ${brief(e)}, got ${brief(a)}`;
  if (typeof a === 'number' && typeof e === 'number') {
    const tolerance = options.tolerance ?? 0;
    return Math.abs(a - e) <= tolerance * Math.max(1, Math.abs(a), Math.abs(e)) ? undefined : `${path}: expected ${e}, got ${a}`;
  }
  if (Array.isArray(a) || Array.isArray(e)) {
    if (!Array.isArray(a) || !Array.isArray(e)) return `${path}: expected ${brief(e)}, got ${brief(a)}`;
    if (a.length !== e.length) return `${path}: expected ${e.length} items, got ${a.length}`;
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], e[i], options, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof a === 'object' && typeof e === 'object') {
    const keys = options.onlyExpectedKeys ? Object.keys(e) : [...new Set([...Object.keys(a), ...Object.keys(e)])];
    for (const key of keys) {
      const found = firstDifference((a as Record<string, Json>)[key], (e as Record<string, Json>)[key], options, `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(a, e) ? undefined : `${path}: expected ${brief(e)}, got ${brief(a)}`;
}

function brief(value: Json): string {
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
