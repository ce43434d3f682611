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
  const url = new URL(target.path, root);
  // Statuses are read here rather than thrown by gaxios, which drops the body of a failed streamed call: the raw
  // proxies pass a provider's error body on, and the error verdict needs its reasons. 401/403 still throw, so the
  // auth client can refresh its token and retry; their body is recovered from the error.
  let res;
  try {
    res = await session.auth.request<unknown>({
      url,
      method: target.method,
      ...(target.method === 'POST' ? { data: body ?? {} } : {}),
      responseType: 'stream',
      signal,
      redirect: 'manual',
      validateStatus: (status) => status !== 401 && status !== 403,
    });
  } catch (error) {
    throw withRecoveredBody(error);
  }
  const text = await readCapped(res.data, signal);
  if (res.status >= 400) throw new GoogleHttpFailure(url, res.status, text, res.headers);
  return readRawBody(res.status, text, res.headers, `raw ${target.operation}`);
}

/**
 * gaxios reads a failed streamed body into text, makes that text the error message, then empties `response.data`
 * (gaxios 8, `GaxiosError` and `translateData`). The message is the body again when it is JSON.
 */
function withRecoveredBody(error: unknown): unknown {
  const e = error as { message?: unknown; response?: { data?: unknown } } | null;
  if (e?.response === undefined || e.response.data !== undefined || typeof e.message !== 'string') return error;
  try {
    JSON.parse(e.message);
    e.response.data = e.message;
  } catch {
    // Not a JSON body: the verdict goes by status alone.
  }
  return error;
}

/** A provider error answer in the shape of a gaxios error, so the providers' error verdicts read it the same way. */
class GoogleHttpFailure extends Error {
  readonly config: { url: URL };
  readonly response: { status: number; data: string; headers: unknown };
  constructor(url: URL, status: number, data: string, headers: unknown) {
    super(`HTTP ${status}`);
    this.config = { url };
    this.response = { status, data, headers };
  }
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
