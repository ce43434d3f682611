// GA Data API failures → AppErrors: the one place that decides what each provider answer means for the caller.
import type { GoogleFailure } from '../google-errors.ts';
import { commonGoogleVerdict, readGoogleFailure } from '../google-errors.ts';
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
}

/** "Exhausted property tokens per day…": waiting seconds will not help, so no retry (SPEC §10). */
export function isDailyQuota(failure: GoogleFailure): boolean {
  return /per day|daily/i.test(failure.message);
}

export function classifyAnalyticsError(error: unknown, context: AnalyticsErrorContext): FailureVerdict {
  const failure = readGoogleFailure(error, context.isTokenRequest);
  const common = commonGoogleVerdict(failure, 'analytics');
  if (common !== undefined) return common;
  const status = failure.status ?? 0;
  if (status === 429) {
    const daily = isDailyQuota(failure);
    return quotaVerdict('analytics', failure.message || 'The analytics property is out of quota.', {
      retryable: !daily,
      retryAfterMs: failure.retryAfterMs,
      status,
    });
  }
  if (status === 403) {
    return credentialVerdict(
      'analytics',
      `The stored analytics credential has no access to property ${context.propertyId}` +
        (failure.message ? `: ${failure.message}` : '.'),
      status,
    );
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
