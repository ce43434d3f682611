// Per-request values kept on the h3 event: the request id and headers every response must carry.
import type { H3Event, H3EventContext } from 'h3';
import { FastResponse } from 'srvx';

declare module 'h3' {
  interface H3EventContext {
    requestId?: string;
    startedAt?: number;
    /** The request this context belongs to, for the work that follows its answer (see `every-answer.ts`). */
    request?: Request;
    /** Headers to add to whatever response (success or problem) leaves for this request, e.g. rate-limit fields. */
    responseHeaders?: Record<string, string>;
    /** Set once a response already carries `responseHeaders` (see `preparedResponse`). */
    headersApplied?: boolean;
  }
}

export function requestIdOf(event: H3Event): string {
  return event.context.requestId ?? 'unknown';
}

/**
 * Records headers every response of this request must carry (request id, rate-limit fields). The hot paths put
 * them into their answer themselves (`preparedResponse`); `applyRecordedHeaders` adds them to any other response
 * as it leaves. They are kept as a plain object, not on h3's `event.res.headers`: a web `Headers` object per
 * request, validated per field and sorted again when sent, was a visible share of a warm request's time.
 */
export function addResponseHeaders(event: H3Event, headers: Record<string, string>): void {
  const recorded = (event.context.responseHeaders ??= {});
  for (const name in headers) recorded[name] = headers[name]!;
}

/**
 * A finished answer with this request's recorded headers, sent as it is (no `Headers` object is built for it).
 * Kept answers pass their UTF-8 bytes: a string is measured and encoded again for every send.
 */
export function preparedResponse(event: H3Event, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>, status = 200): Response {
  event.context.headersApplied = true;
  const recorded = event.context.responseHeaders;
  return new FastResponse(body, { status, headers: recorded === undefined ? headers : { ...recorded, ...headers } });
}

/**
 * Adds the recorded headers a response does not have yet (a handler's own Response, h3's answer to a returned
 * value, Yoga's or the MCP SDK's). Returns false when the response's headers cannot be changed.
 */
export function applyRecordedHeaders(context: H3EventContext, response: Response): boolean {
  const recorded = context.responseHeaders;
  if (recorded === undefined || context.headersApplied) return true;
  try {
    for (const name in recorded) if (!response.headers.has(name)) response.headers.set(name, recorded[name]!);
    return true;
  } catch {
    return false; // an immutable Headers (a fetched Response passed through)
  }
}
