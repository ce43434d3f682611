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
  const res = await session.auth.request<unknown>({
    url: new URL(target.path, root),
    method: target.method,
    ...(target.method === 'POST' ? { data: body ?? {} } : {}),
    responseType: 'stream',
    signal,
    redirect: 'manual',
  });
  return readRawBody(res.status, await readCapped(res.data, signal), res.headers, `raw ${target.operation}`);
}

/** Reads a streamed answer, giving up past RAW_ANSWER_LIMIT so one raw call cannot exhaust the server's memory. */
async function readCapped(stream: unknown, signal: AbortSignal): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.byteLength;
    if (size > RAW_ANSWER_LIMIT) {
      (stream as { destroy?: () => void; cancel?: () => unknown }).destroy?.();
      if (signal.aborted) throw signal.reason;
      throw new MalformedAnswer(`an answer larger than ${RAW_ANSWER_LIMIT / 1024 / 1024} MiB; ask for fewer rows`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Largest provider answer a raw proxy passes through. */
export const RAW_ANSWER_LIMIT = 8 * 1024 * 1024;
