// The raw proxies' answer: the provider's status and JSON body exactly as sent (byte for byte), checked to be JSON.
import type { GoogleSession } from './google-auth.ts';
import { MalformedAnswer } from './upstream-errors.ts';

export interface RawResponse {
  status: number;
  /** The provider's body text, unchanged. */
  body: string;
  /** The same body, parsed (for caching or inspection). */
  json: unknown;
}

export function readRawBody(status: number, text: unknown, _headers: unknown, what: string): RawResponse {
  if (typeof text !== 'string') throw new MalformedAnswer(`${what}: no body`);
  try {
    return { status, body: text, json: JSON.parse(text) as unknown };
  } catch {
    throw new MalformedAnswer(`${what}: not JSON`);
  }
}

export interface RawTarget {
  /** Path below the provider root, already checked against the project's own property or site. */
  path: string;
  method: 'GET' | 'POST';
  operation: string;
}

/**
 * One raw-proxy attempt against a Google API: the auth client's own transport (token, timeouts), the constant
 * provider root plus the checked path (never caller text), and no redirects followed.
 */
export async function googleRawAttempt(session: GoogleSession, root: string, target: RawTarget, body: unknown, signal: AbortSignal): Promise<RawResponse> {
  const res = await session.auth.request<string>({
    url: new URL(target.path, root),
    method: target.method,
    ...(target.method === 'POST' ? { data: body ?? {} } : {}),
    responseType: 'text',
    signal,
    redirect: 'manual',
  });
  return readRawBody(res.status, res.data, res.headers, `raw ${target.operation}`);
}
