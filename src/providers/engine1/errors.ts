// Search Console failures → AppErrors: the one place that decides what each provider answer means for the caller.
import { commonGoogleVerdict, isQuotaForbidden, readGoogleFailure } from '../google-errors.ts';
import type { FailureVerdict } from '../upstream-errors.ts';
import {
  credentialVerdict,
  invalidParameterVerdict,
  passThroughVerdict,
  quotaVerdict,
  rejectedVerdict,
} from '../upstream-errors.ts';

export interface Engine1ErrorContext {
  siteUrl: string;
  raw: boolean;
  isTokenRequest: (url: unknown) => boolean;
}

export function classifyEngine1Error(error: unknown, context: Engine1ErrorContext): FailureVerdict {
  const failure = readGoogleFailure(error, context.isTokenRequest);
  const common = commonGoogleVerdict(failure, 'engine1');
  if (common !== undefined) return common;
  const status = failure.status ?? 0;
  // 429 is the QPS/QPM limit; the load quota answers 403 "quota exceeded" (provider-contracts §C.6). Both pass
  // within minutes, so both are retried before giving up.
  if (status === 429 || (status === 403 && isQuotaForbidden(failure))) {
    return quotaVerdict('engine1', 'The search provider\'s quota for this site is exhausted; try again in a few minutes.', {
      retryable: true,
      retryAfterMs: failure.retryAfterMs,
      status,
    });
  }
  if (status === 403) {
    return credentialVerdict(
      'engine1',
      `The stored engine1 credential has no permission for site '${context.siteUrl}'; add it as a user of that property or reconnect.`,
      status,
    );
  }
  if (context.raw) return passThroughVerdict('engine1', status, failure.body);
  if (status === 400) {
    return invalidParameterVerdict('engine1', failure.message || 'The search provider rejected the request.', status);
  }
  if (status === 404) {
    return credentialVerdict('engine1', `Site '${context.siteUrl}' was not found for the stored engine1 credential.`, status);
  }
  return rejectedVerdict('engine1', `The search provider rejected the request (HTTP ${status}).`, status);
}
