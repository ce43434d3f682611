// Verdicts on a failed upstream attempt (which AppError, retry or not, breaker or not), shared by the three providers.
import { AppError, type ErrorCode } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import { SOURCE_DISPLAY_NAMES } from '../domain/sources.ts';

export interface FailureVerdict {
  /** What the caller finally sees if no retry succeeds. */
  error: AppError;
  /** 408/5xx/network/attempt timeout: worth another attempt. A provider quota (429) never is. */
  retryable: boolean;
  /**
   * Attempts this kind of failure may use in all (e.g. 2 for a GA 5xx: each one spends the property's
   * server-errors-per-hour quota). Default: the pipeline's maxAttempts.
   */
  maxAttempts?: number;
  /** The provider's `Retry-After` (or equivalent), honoured by the backoff. */
  retryAfterMs?: number;
  /** Counts towards the circuit breaker: the upstream is unhealthy (5xx, network, timeout, malformed). */
  upstreamFault: boolean;
  /** Upstream HTTP status, for logs. */
  status?: number;
}

const name = (source: Source): string => SOURCE_DISPLAY_NAMES[source];

/** The stored connection is at fault (424): a rejected credential, or the setup problem `code` names. */
export function credentialVerdict(
  source: Source,
  detail: string,
  status?: number,
  options: { code?: ErrorCode; upstream?: unknown } = {},
): FailureVerdict {
  return {
    error: new AppError(options.code ?? 'upstream_credential_invalid', detail, { provider: source, ...(options.upstream === undefined ? {} : { upstream: options.upstream }) }),
    retryable: false,
    upstreamFault: false,
    status,
  };
}

/**
 * A provider quota. `retryable` only for throttles that pass within seconds (Bing's); a Google quota 429 is never
 * retried: every retry spends the same quota. `retryAfterMs` is when the exhausted quota returns.
 */
export function quotaVerdict(
  source: Source,
  detail: string,
  options: { retryable: boolean; retryAfterMs?: number; status?: number; upstream?: unknown },
): FailureVerdict {
  // Without a better hint: a short-term limit is worth retrying in a minute, a daily one in an hour.
  const headers = retryAfterHeader(options.retryAfterMs ?? (options.retryable ? 60_000 : 3_600_000));
  return {
    error: new AppError('upstream_quota_exhausted', detail, { provider: source, headers, ...(options.upstream === undefined ? {} : { upstream: options.upstream }) }),
    retryable: options.retryable,
    retryAfterMs: options.retryable ? options.retryAfterMs : undefined,
    upstreamFault: false,
    status: options.status,
  };
}

export function serverErrorVerdict(source: Source, status: number, retryAfterMs?: number): FailureVerdict {
  return {
    error: new AppError('upstream_error', `${name(source)} answered with HTTP ${status}.`, { provider: source }),
    retryable: true,
    retryAfterMs,
    upstreamFault: true,
    status,
  };
}

export function upstreamTimeoutVerdict(source: Source, status?: number): FailureVerdict {
  return {
    error: new AppError('upstream_timeout', `${name(source)} did not answer in time.`, { provider: source }),
    retryable: true,
    upstreamFault: true,
    status,
  };
}

export function networkVerdict(source: Source): FailureVerdict {
  return {
    error: new AppError('upstream_error', `${name(source)} could not be reached.`, { provider: source }),
    retryable: true,
    upstreamFault: true,
  };
}

export function malformedVerdict(source: Source, what: string): FailureVerdict {
  return {
    error: new AppError('upstream_error', `${name(source)} sent a malformed answer (${what}).`, { provider: source }),
    retryable: false,
    upstreamFault: true,
  };
}

/** A local failure around the call (not an HTTP outcome): not retried, not described (it could echo secrets). */
export function unexpectedVerdict(source: Source): FailureVerdict {
  return {
    error: new AppError('upstream_error', `${name(source)} call failed unexpectedly.`, { provider: source }),
    retryable: false,
    upstreamFault: false,
  };
}

/** The provider refused our request for a reason a retry cannot fix (typed calls). */
export function rejectedVerdict(source: Source, detail: string, status?: number): FailureVerdict {
  return {
    error: new AppError('upstream_error', detail, { provider: source }),
    retryable: false,
    upstreamFault: false,
    status,
  };
}

/** Raw proxies pass a provider 4xx through: same status, the provider's error body. */
export function passThroughVerdict(source: Source, status: number, body: unknown): FailureVerdict {
  const upstream = JSON.parse(scrubSecrets(JSON.stringify(body ?? null))) as unknown;
  return {
    error: new AppError('upstream_rejected', `${name(source)} rejected the request (HTTP ${status}).`, {
      provider: source,
      status,
      upstream,
    }),
    retryable: false,
    upstreamFault: false,
    status,
  };
}

export function invalidParameterVerdict(source: Source, detail: string, status?: number): FailureVerdict {
  return {
    error: new AppError('invalid_parameter', detail, { provider: source }),
    retryable: false,
    upstreamFault: false,
    status,
  };
}

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export function retryAfterHeader(ms: number | undefined): Record<string, string> | undefined {
  if (ms === undefined) return undefined;
  return { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) };
}

// Google access tokens (ya29.…), bearer headers, refresh tokens (1//…) and OAuth client secrets (GOCSPX-…).
const TOKEN_PATTERNS = [/\bBearer\s+[\w.~+/=-]+/gi, /\bya29\.[\w.~+/=-]+/g, /(?<![\w/])1\/\/[\w.~+/=-]+/g, /\bGOCSPX-[\w-]+/g];

/** Masks anything shaped like a Google credential in provider text (a provider echoing a header must not leak it). */
export function scrubSecrets(text: string): string {
  return TOKEN_PATTERNS.reduce((out, pattern) => out.replace(pattern, '[redacted]'), text);
}

const DOC_LINK_SENTENCE = /[^.]*\b(?:see|learn more)\b[^.]*?https?:\/\/\S+/gi;
const SECRET_URL = /https?:\/\/[^\s'"]*(?:googleapis\.com|bing\.com\/webmaster|[?&](?:apikey|access_token|key)=)[^\s'"]*/gi;

/**
 * Keeps a provider message actionable for the caller: drops "see https://…" documentation tails and any API URL
 * (which could carry a key); site URLs the caller configured stay, they name what to fix.
 */
export function sanitizeProviderMessage(message: string): string {
  const cleaned = scrubSecrets(message)
    .replace(DOC_LINK_SENTENCE, '')
    .replace(SECRET_URL, '[url]')
    .replace(/\s+/g, ' ')
    .trim();
  const bounded = cleaned.length > 500 ? `${cleaned.slice(0, 497)}...` : cleaned;
  return bounded.endsWith('.') || bounded === '' ? bounded : `${bounded}.`;
}

/** Thrown while reading an answer whose shape or values are not what the provider documents. */
export class MalformedAnswer extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'MalformedAnswer';
  }
}

/** Validates a provider answer against the shape we read; throws MalformedAnswer (→ 502) otherwise. */
export function parseShape<T>(schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } }, data: unknown, what: string): T {
  const result = schema.safeParse(data);
  if (!result.success) throw new MalformedAnswer(typeof data === 'string' ? `${what}: not JSON` : `${what}: unexpected shape`);
  return result.data;
}

/** Every concurrency slot for the target stayed taken: shed the request rather than queue it past its deadline. */
export function busyVerdict(source: Source, retryAfterMs: number): FailureVerdict {
  return {
    error: new AppError('upstream_unavailable', `Too many ${name(source)} requests for this target are running; retry shortly.`, {
      provider: source,
      headers: retryAfterHeader(retryAfterMs),
    }),
    retryable: false,
    upstreamFault: false,
  };
}
