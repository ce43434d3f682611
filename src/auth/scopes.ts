// The scopes an API key or OAuth token can carry: `read` (default), `raw` (raw proxies), `mcp:write`.
import { invalidParameter } from '../errors/app-error.ts';

export const SCOPES = ['read', 'raw', 'mcp:write'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SCOPES: readonly Scope[] = ['read'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Accepts a list or a space/comma-separated string; deduplicated, in canonical order; unknown scopes are a 400. */
export function parseScopes(input: string | readonly string[], param = 'scopes'): Scope[] {
  const words = (typeof input === 'string' ? input.split(/[\s,]+/) : input.flatMap((s) => s.split(/[\s,]+/))).filter(Boolean);
  const unknown = words.filter((w) => !isScope(w));
  if (unknown.length > 0) {
    throw invalidParameter(param, `Unknown scope ${unknown.map((w) => `'${w}'`).join(', ')}; use ${SCOPES.join(', ')}.`);
  }
  if (words.length === 0) throw invalidParameter(param, `At least one scope is needed (${SCOPES.join(', ')}).`);
  return SCOPES.filter((scope) => words.includes(scope));
}

/** Space-separated, as stored and as OAuth `scope` parameters carry them. */
export function formatScopes(scopes: Iterable<Scope>): string {
  const set = new Set(scopes);
  return SCOPES.filter((s) => set.has(s)).join(' ');
}
