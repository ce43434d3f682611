// Search Console failures → AppErrors: the one place that decides what each provider answer means for the caller.
import { commonGoogleVerdict, isQuotaForbidden, readGoogleFailure } from '../google-errors.ts';
import { permissionDeniedVerdict, setupVerdict } from '../google-setup-errors.ts';
import { SEARCH_LOAD_QUOTA_WAIT_MS } from '../quota-reset.ts';
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
  /** The credential's account (service-account e-mail or OAuth user), for advice. */
  account: string;
}

export function classifyEngine1Error(error: unknown, context: Engine1ErrorContext): FailureVerdict {
  const failure = readGoogleFailure(error, context.isTokenRequest);
  const common = commonGoogleVerdict(failure, 'engine1');
  if (common !== undefined) return common;
  const status = failure.status ?? 0;
  // The load quota answers 403 "quota exceeded" and Google asks for ~15 minutes; 429 is
  // the per-minute limit. Neither is retried: a retry spends the same quota.
  if (status === 403 && isQuotaForbidden(failure)) {
    return quotaVerdict('engine1', `The search provider's load quota for site '${context.siteUrl}' is exhausted; try again in 15 minutes.`, {
      retryable: false,
      retryAfterMs: SEARCH_LOAD_QUOTA_WAIT_MS,
      status,
    });
  }
  if (status === 429) {
    return quotaVerdict('engine1', `The search provider's per-minute quota for site '${context.siteUrl}' is exhausted; try again in a minute.`, {
      retryable: false,
      retryAfterMs: failure.retryAfterMs ?? 60_000,
      status,
    });
  }
  if (status === 403) {
    const setup = { source: 'engine1' as const, account: context.account, target: context.siteUrl };
    return setupVerdict(failure, setup) ?? permissionDeniedVerdict(failure, setup);
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
