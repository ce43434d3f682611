// The exact error bodies Google and Bing send for the misconfigurations a new setup hits, answered when a
// property or site has a named failure switched on (target-faults.ts). Bodies follow Google's google.rpc.Status
// with ErrorInfo details and Bing's bare {ErrorCode, Message}.
import { googleError, type ProviderError } from '../http.ts';
import { noPropertyAccess } from '../analytics/ga-errors.ts';
import { noSitePermission } from '../engine1/gsc-errors.ts';
import { bingError } from '../engine2/handler.ts';
import type { Provider } from './fault-settings.ts';
import type { NamedFailure } from './target-faults.ts';

/** The Cloud project number the sandbox's credentials belong to, and the one Google's gcloud CLI uses. */
const SANDBOX_PROJECT = '123456789012';
const GCLOUD_SHARED_PROJECT = '764086051850';

const SERVICES: Record<'analytics' | 'engine1', { service: string; title: string; method: string }> = {
  analytics: { service: 'analyticsdata.googleapis.com', title: 'Google Analytics Data API', method: 'google.analytics.data.v1beta.BetaAnalyticsData.RunReport' },
  engine1: { service: 'searchconsole.googleapis.com', title: 'Google Search Console API', method: 'google.searchconsole.v1.SearchAnalytics.Query' },
};

const errorInfo = (reason: string, metadata: Record<string, string>) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason,
  domain: 'googleapis.com',
  metadata,
});

function serviceDisabled(api: (typeof SERVICES)['analytics']): ProviderError {
  const activationUrl = `https://console.developers.google.com/apis/api/${api.service}/overview?project=${SANDBOX_PROJECT}`;
  const message = `${api.title} has not been used in project ${SANDBOX_PROJECT} before or it is disabled. Enable it by visiting ${activationUrl} then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry.`;
  return googleError(403, message, {
    details: [
      errorInfo('SERVICE_DISABLED', { consumer: `projects/${SANDBOX_PROJECT}`, service: api.service, activationUrl, serviceTitle: api.title, containerInfo: SANDBOX_PROJECT }),
      { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message },
      { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Google developers console API activation', url: activationUrl }] },
    ],
  });
}

function scopeInsufficient(api: (typeof SERVICES)['analytics']): ProviderError {
  return googleError(403, 'Request had insufficient authentication scopes.', {
    details: [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', { service: api.service, method: api.method })],
  });
}

function quotaProjectRequired(api: (typeof SERVICES)['analytics']): ProviderError {
  return googleError(403, `Your application is authenticating by using local Application Default Credentials. The ${api.service} API requires a quota project, which is not set by default. To learn how to set your quota project, see https://cloud.google.com/docs/authentication/adc-troubleshooting/user-creds .`, {
    details: [errorInfo('SERVICE_DISABLED', { consumer: `projects/${GCLOUD_SHARED_PROJECT}`, service: api.service })],
  });
}

function userProjectDenied(api: (typeof SERVICES)['analytics'], project: string): ProviderError {
  const url = `https://console.developers.google.com/iam-admin/iam/project?project=${project}`;
  return googleError(403, `Caller does not have required permission to use project ${project}. Grant the caller the roles/serviceusage.serviceUsageConsumer role, or a custom role with the serviceusage.services.use permission, by visiting ${url} and then retry. Propagation of the new permission may take a few minutes.`, {
    details: [
      { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Google developer console IAM admin', url }] },
      errorInfo('USER_PROJECT_DENIED', { consumer: `projects/${project}`, service: api.service }),
    ],
  });
}

function loadQuota(): ProviderError {
  const message = "Search Analytics load quota exceeded for this site. Quota exceeded for quota metric 'Search Analytics load' of service 'searchconsole.googleapis.com'. Try again in 15 minutes.";
  return googleError(403, message, { errors: [{ message, domain: 'usageLimits', reason: 'quotaExceeded' }] });
}

const GA_QUOTA_URL = 'To learn more, see https://developers.google.com/analytics/devguides/reporting/data/v1/quotas';

/**
 * The answer for `failure` on `provider`, or undefined when it does not apply (a Bing code on a Google API, a
 * quota-project error when the request names one). `userProject` is the request's x-goog-user-project.
 */
export function namedFailure(provider: Provider, failure: NamedFailure, target: string, userProject: string | null): ProviderError | undefined {
  if (provider === 'engine2') {
    if (failure === 'not_authorized') return bingError(400, 14, 'NotAuthorized');
    if (failure === 'invalid_url') return bingError(400, 7, 'InvalidUrl');
    if (failure === 'user_blocked') return bingError(400, 6, 'UserBlocked');
    return undefined;
  }
  if (provider === 'token') return undefined;
  const api = SERVICES[provider];
  switch (failure) {
    case 'service_disabled':
      return serviceDisabled(api);
    case 'scope_insufficient':
      return scopeInsufficient(api);
    case 'quota_project_required':
      return userProject ? undefined : quotaProjectRequired(api);
    case 'user_project_denied':
      return userProject ? userProjectDenied(api, userProject) : undefined;
    case 'permission_denied':
      return provider === 'analytics' ? noPropertyAccess() : noSitePermission(target);
    case 'hourly_tokens':
      return provider === 'analytics' ? googleError(429, `Exhausted property tokens per hour. These quota tokens will return in under an hour. ${GA_QUOTA_URL}`) : undefined;
    case 'daily_tokens':
      return provider === 'analytics' ? googleError(429, `Exhausted property tokens per day. These quota tokens will return tomorrow. ${GA_QUOTA_URL}`) : undefined;
    case 'load_quota':
      return provider === 'engine1' ? loadQuota() : undefined;
    default:
      return undefined;
  }
}
