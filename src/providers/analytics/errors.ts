// GA Data API failures → AppErrors: the one place that decides what each provider answer means for the caller.
import type { GoogleFailure } from '../google-failure.ts';
import { commonGoogleVerdict, readGoogleFailure } from '../google-errors.ts';
import { permissionDeniedVerdict, setupVerdict } from '../google-setup-errors.ts';
import { msUntilNextHour, msUntilPacificMidnight } from '../quota-reset.ts';
import type { FailureVerdict } from '../upstream-errors.ts';
import {
  credentialVerdict,
  invalidParameterVerdict,
  passThroughVerdict,
  quotaVerdict,
  rejectedVerdict,
} from '../upstream-errors.ts';

export interface AnalyticsErrorContext {
  propertyId: string;
  /** Raw proxy: provider 4xx pass through with status and body instead of being interpreted. */
  raw: boolean;
  isTokenRequest: (url: unknown) => boolean;
  /** The credential's account (service-account e-mail or OAuth user), for advice. */
  account: string;
}

/**
 * GA counts every 5xx against the property's ~10 server errors per project per hour: one retry at most, so a
 * failing property is not driven into that quota by our own retries.
 */
const SERVER_ERROR_ATTEMPTS = 2;
/** A concurrent-requests 429 clears as soon as a running request ends. */
const CONCURRENCY_WAIT_MS = 5_000;

/** "Exhausted property tokens per day…": waiting seconds will not help. */
export function isDailyQuota(failure: GoogleFailure): boolean {
  return /per day|daily/i.test(failure.message);
}

/** When the exhausted bucket refills: daily at midnight Pacific, hourly (tokens or server errors) by the next hour. */
export function quotaReturnsInMs(failure: GoogleFailure, now = Date.now()): number {
  if (isDailyQuota(failure)) return msUntilPacificMidnight(now);
  if (/concurrent/i.test(failure.message)) return CONCURRENCY_WAIT_MS;
  return msUntilNextHour(now);
}

export function classifyAnalyticsError(error: unknown, context: AnalyticsErrorContext): FailureVerdict {
  const failure = readGoogleFailure(error, context.isTokenRequest);
  const common = commonGoogleVerdict(failure, 'analytics');
  if (common !== undefined) {
    return (failure.status ?? 0) >= 500 && !failure.fromTokenEndpoint ? { ...common, maxAttempts: SERVER_ERROR_ATTEMPTS } : common;
  }
  const status = failure.status ?? 0;
  if (status === 429) {
    // Never retried: every retry of a quota 429 spends the quota that ran out.
    return quotaVerdict('analytics', failure.message || 'The analytics property is out of quota.', {
      retryable: false,
      retryAfterMs: quotaReturnsInMs(failure),
      status,
    });
  }
  if (status === 403) {
    const setup = { source: 'analytics' as const, account: context.account, target: context.propertyId };
    return setupVerdict(failure, setup) ?? permissionDeniedVerdict(failure, setup);
  }
  if (context.raw) return passThroughVerdict('analytics', status, failure.body);
  if (status === 400) {
    return invalidParameterVerdict('analytics', failure.message || 'The analytics provider rejected the request.', status);
  }
  if (status === 404) {
    return credentialVerdict('analytics', `Analytics property ${context.propertyId} was not found for the stored credential.`, status);
  }
  return rejectedVerdict('analytics', `The analytics provider rejected the request (HTTP ${status}).`, status);
}
