// Cache keys: a readable prefix plus a hash of the canonical provider request, credential identity and data source.
import { createHash } from 'node:crypto';

export interface CacheKeyParts {
  /** Readable operation name, e.g. `analytics.batchRunReports`, `engine1.searchAnalytics`. */
  operation: string;
  /** Data source identity, e.g. `analytics:123456`, `engine1:sc-domain:example.com`. */
  source: string;
  /**
   * Identity of the credential used upstream (e.g. stored credential id and version), never the secret:
   * two credentials may see different data for the same request, so they must not share entries.
   */
  credential: string;
  /** The provider request as sent upstream (tenant-independent); key order does not matter. */
  request: unknown;
}

// Bump when the meaning of cached values changes, so old entries are simply never read again.
const KEY_VERSION = 'v1';

export function toCacheKey(parts: CacheKeyParts): string {
  const digest = createHash('sha256')
    .update(canonicalJson({ source: parts.source, credential: parts.credential, request: parts.request }))
    .digest('base64url');
  return `${KEY_VERSION}:${parts.operation}:${parts.source}:${digest}`;
}

/** JSON with object keys sorted at every depth, so equal requests give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (isPlainObject(v) ? sortKeys(v) : v));
  if (text === undefined) throw new TypeError('canonicalJson: value is not JSON-serialisable');
  return text;
}

function sortKeys(object: Record<string, unknown>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) sorted[key] = object[key];
  return sorted;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
