// Bing Webmaster failures → AppErrors. Bing signals errors by `ErrorCode` in a bare body; HTTP statuses vary.
import { AppError } from '../../errors/app-error.ts';
import type { FailureVerdict } from '../upstream-errors.ts';
import {
  credentialVerdict,
  networkVerdict,
  passThroughVerdict,
  quotaVerdict,
  rejectedVerdict,
  serverErrorVerdict,
  unexpectedVerdict,
  upstreamTimeoutVerdict,
} from '../upstream-errors.ts';

/** A non-success answer. Deliberately carries no URL: the URL holds the API key. */
export class Engine2Failure extends Error {
  readonly status: number;
  readonly errorCode?: number;
  readonly body: unknown;
  readonly retryAfterMs?: number;
  constructor(status: number, body: unknown, errorCode?: number, retryAfterMs?: number) {
    super(`engine2 answered HTTP ${status}${errorCode === undefined ? '' : ` ErrorCode ${errorCode}`}`);
    this.name = 'Engine2Failure';
    this.status = status;
    this.errorCode = errorCode;
    this.body = body;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Vendor enum ApiErrorCode. */
const ERROR_NAMES: Record<number, string> = {
  1: 'InternalError',
  2: 'UnknownError',
  3: 'InvalidApiKey',
  4: 'ThrottleUser',
  5: 'ThrottleHost',
  6: 'UserBlocked',
  7: 'InvalidUrl',
  8: 'InvalidParameter',
  9: 'TooManySites',
  10: 'UserNotFound',
  11: 'NotFound',
  12: 'AlreadyExists',
  13: 'NotAllowed',
  14: 'NotAuthorized',
  15: 'UnexpectedState',
  16: 'Deprecated',
};

export interface Engine2ErrorContext {
  siteUrl: string;
  raw: boolean;
  /** Scrubbed from any provider body passed through, in case Bing ever echoes the request URL. */
  apiKey: string;
}

function scrub(body: unknown, secret: string): unknown {
  if (secret === '') return body;
  return JSON.parse(JSON.stringify(body ?? null).replaceAll(secret, '[redacted]')) as unknown;
}

export function classifyEngine2Error(error: unknown, context: Engine2ErrorContext): FailureVerdict {
  if (!(error instanceof Engine2Failure)) {
    // fetch rejects with a TypeError on network failure; its text is never surfaced.
    return error instanceof TypeError ? networkVerdict('engine2') : unexpectedVerdict('engine2');
  }
  const { status, errorCode } = error;
  if (errorCode !== undefined) return byErrorCode(error, errorCode, context);
  if (status === 429) {
    return quotaVerdict('engine2', 'The engine2 API is throttling this key; try again later.', {
      retryable: true,
      retryAfterMs: error.retryAfterMs,
      status,
    });
  }
  if (status === 408) return upstreamTimeoutVerdict('engine2', status);
  if (status >= 500) return serverErrorVerdict('engine2', status, error.retryAfterMs);
  if (status === 401 || status === 403) {
    return credentialVerdict('engine2', 'The engine2 API rejected the stored API key; store a new key.', status);
  }
  if (context.raw && status >= 400 && status < 500) return passThroughVerdict('engine2', status, scrub(error.body, context.apiKey));
  return rejectedVerdict('engine2', `The engine2 API answered HTTP ${status}.`, status);
}

function byErrorCode(error: Engine2Failure, code: number, context: Engine2ErrorContext): FailureVerdict {
  const name = ERROR_NAMES[code] ?? `ErrorCode ${code}`;
  // Bing's own words stay in the problem body (`upstream`), scrubbed of the key.
  const upstream = scrub(error.body, context.apiKey);
  switch (code) {
    case 3:
      return credentialVerdict('engine2', 'The stored engine2 API key is invalid (InvalidApiKey): it was regenerated or deleted. In Bing Webmaster Tools, Settings → API access, copy the current key and store it.', error.status, { upstream });
    case 6:
      return credentialVerdict('engine2', 'The Bing Webmaster Tools account that owns the stored API key is blocked (UserBlocked); resolve it with Bing, or store a key of another account.', error.status, { upstream });
    case 10:
      return credentialVerdict('engine2', 'The Bing Webmaster Tools account of the stored API key no longer exists (UserNotFound); store a key of an existing account.', error.status, { upstream });
    case 7:
    case 14:
      return credentialVerdict(
        'engine2',
        `The account of the stored engine2 API key has not verified site '${context.siteUrl}' (${name}). Add and verify the site in Bing Webmaster Tools for that account, or use the site URL exactly as it is listed there.`,
        error.status,
        { code: 'upstream_permission_denied', upstream },
      );
    case 4:
    case 5:
      return quotaVerdict('engine2', `The engine2 API is throttling this key (${name}); try again later.`, {
        retryable: true,
        retryAfterMs: error.retryAfterMs,
        status: error.status,
      });
    case 1:
    case 2:
      return {
        ...serverErrorVerdict('engine2', error.status),
        error: new AppError('upstream_error', `The engine2 API reported an internal error (${name}).`, { provider: 'engine2' }),
      };
    default:
      if (context.raw) return passThroughVerdict('engine2', error.status >= 400 ? error.status : 400, scrub(error.body, context.apiKey));
      return rejectedVerdict('engine2', `The engine2 API rejected the request (${name}).`, error.status);
  }
}
