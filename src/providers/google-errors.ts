// Reads a failed Google call (gaxios error, token endpoint or API) into one shape; the checks GA and GSC share.
import type { Source } from '../domain/sources.ts';
import { SOURCE_DISPLAY_NAMES } from '../domain/sources.ts';
import type { GoogleFailure } from './google-failure.ts';
import { tokenVerdict } from './google-token-errors.ts';
import type { FailureVerdict } from './upstream-errors.ts';
import {
  credentialVerdict,
  networkVerdict,
  parseRetryAfter,
  sanitizeProviderMessage,
  serverErrorVerdict,
  unexpectedVerdict,
  upstreamTimeoutVerdict,
} from './upstream-errors.ts';

interface GaxiosLike {
  code?: unknown;
  message?: unknown;
  config?: { url?: unknown };
  response?: { status?: unknown; data?: unknown; headers?: unknown };
}

export function readGoogleFailure(error: unknown, isTokenRequest: (url: unknown) => boolean): GoogleFailure {
  const e = (typeof error === 'object' && error !== null ? error : {}) as GaxiosLike;
  const response = e.response;
  const status = typeof response?.status === 'number' ? response.status : undefined;
  const body = parseBody(response?.data);
  const envelope = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const tokenError = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
  const reasons = [
    ...arrayOf(envelope?.details).map((d) => (isRecord(d) && typeof d.reason === 'string' ? d.reason : '')),
    ...arrayOf(envelope?.errors).map((d) => (isRecord(d) && typeof d.reason === 'string' ? d.reason : '')),
  ].filter((r) => r !== '');
  const info = arrayOf(envelope?.details).find((d) => isRecord(d) && isRecord(d.metadata));
  const errorMetadata = Object.fromEntries(
    Object.entries(isRecord(info) && isRecord(info.metadata) ? info.metadata : {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const rawMessage =
    typeof envelope?.message === 'string'
      ? envelope.message
      : isRecord(body) && typeof body.error_description === 'string'
        ? body.error_description
        : '';
  const headers = response?.headers;
  const retryAfter = headers instanceof Headers ? headers.get('retry-after') : undefined;
  return {
    status,
    rpcStatus: typeof envelope?.status === 'string' ? envelope.status : undefined,
    message: sanitizeProviderMessage(rawMessage),
    reasons,
    errorMetadata,
    tokenError,
    fromTokenEndpoint: isTokenRequest(e.config?.url) || tokenError !== undefined,
    retryAfterMs: parseRetryAfter(retryAfter),
    body,
    timedOut: e.code === 'TimeoutError' || e.code === 'AbortError',
    fromTransport: e.config !== undefined,
  };
}

/**
 * The failures GA and GSC treat alike: token endpoint, 401, 408, 5xx, no response. Returns undefined for the
 * provider-specific rest (400, 403, 404, 429…).
 */
export function commonGoogleVerdict(failure: GoogleFailure, source: Source): FailureVerdict | undefined {
  const name = SOURCE_DISPLAY_NAMES[source];
  const { status } = failure;
  if (status === undefined) {
    if (!failure.fromTransport) return unexpectedVerdict(source);
    return failure.timedOut ? upstreamTimeoutVerdict(source) : networkVerdict(source);
  }
  if (failure.fromTokenEndpoint) {
    if (status >= 500 || status === 429 || status === 408) return serverErrorVerdict(source, status);
    return tokenVerdict(failure, source);
  }
  if (status === 401) {
    return credentialVerdict(source, `${name} rejected the stored credential's access token; reconnect the data source.`, status);
  }
  if (status === 408) return { ...upstreamTimeoutVerdict(source, status), retryAfterMs: failure.retryAfterMs };
  if (status >= 500) return serverErrorVerdict(source, status, failure.retryAfterMs);
  if (status >= 300 && status < 400) {
    return { ...serverErrorVerdict(source, status), retryable: false };
  }
  return undefined;
}

/** A GA/GSC 403 that is about quota rather than permission (GSC's load quota answers 403). */
export function isQuotaForbidden(failure: GoogleFailure): boolean {
  return (
    failure.reasons.some((r) => /quota|ratelimit/i.test(r)) ||
    /quota/i.test(failure.message) ||
    failure.rpcStatus === 'RESOURCE_EXHAUSTED'
  );
}

function parseBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
