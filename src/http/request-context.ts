// Per-request values kept on the h3 event: the request id and headers every response must carry.
import type { H3Event } from 'h3';

declare module 'h3' {
  interface H3EventContext {
    requestId?: string;
    startedAt?: number;
    /** Headers to add to whatever response (success or problem) leaves for this request, e.g. rate-limit fields. */
    responseHeaders?: Record<string, string>;
  }
}

export function requestIdOf(event: H3Event): string {
  return event.context.requestId ?? 'unknown';
}

/**
 * Headers every response of this request must carry (request id, rate-limit fields): h3 merges `event.res`
 * headers into whatever a handler returns; the error path adds the recorded ones to the problem response.
 */
export function addResponseHeaders(event: H3Event, headers: Record<string, string>): void {
  const recorded = (event.context.responseHeaders ??= {});
  for (const name in headers) {
    event.res.headers.set(name, headers[name]!);
    recorded[name] = headers[name]!;
  }
}
