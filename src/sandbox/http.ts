// Response helpers and the one error type every emulated provider throws: a status plus the provider's exact body.

export class ProviderError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;

  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(typeof body === 'object' && body !== null ? JSON.stringify(body) : String(body));
    this.name = 'ProviderError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=UTF-8', ...headers } });
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE',
};

/** google.rpc.Status over HTTP, as the Data API and Search Console v1 return it. */
export function googleError(code: number, message: string, extra: Record<string, unknown> = {}): ProviderError {
  return new ProviderError(code, { error: { code, message, status: STATUS_NAMES[code] ?? 'UNKNOWN', ...extra } });
}

/** Reads a JSON body; a syntax error is the Google "Invalid JSON payload" 400. */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw googleError(400, `Invalid JSON payload received. Unexpected token.\n${text.slice(0, 40)}\n^`);
  }
}

/** proto3 JSON accepts snake_case field names on input; the sandbox normalises them to lowerCamel. */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = camelKeys(v);
  return out;
}

/** Drops proto3 default values (false, 0, "", empty arrays/objects) recursively, as Google's JSON encoder does. */
export function omitDefaults<T>(value: T): T {
  if (Array.isArray(value)) return value.map(omitDefaults) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === false || v === 0 || v === '' || v === null) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    const cleaned = omitDefaults(v);
    if (typeof cleaned === 'object' && cleaned !== null && !Array.isArray(cleaned) && Object.keys(cleaned).length === 0) continue;
    out[k] = cleaned;
  }
  return out as T;
}
