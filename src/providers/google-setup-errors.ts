// Google 403s that name a setup problem (google.rpc.Status reasons) → a problem code
// and a message that says what to change. The provider's own status, reason and message go along in `upstream`.
import { AppError, type ErrorCode } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import { SOURCE_DISPLAY_NAMES } from '../domain/sources.ts';
import type { GoogleFailure } from './google-failure.ts';
import type { FailureVerdict } from './upstream-errors.ts';

export interface GoogleSetupContext {
  source: Extract<Source, 'analytics' | 'engine1'>;
  /** Who needs access, for the advice: a service-account e-mail, or a description of the OAuth user. */
  account: string;
  /** The property id or site URL the call was about. */
  target: string;
}

const APIS = {
  analytics: { service: 'analyticsdata.googleapis.com', title: 'Google Analytics Data API', scope: 'https://www.googleapis.com/auth/analytics.readonly' },
  engine1: { service: 'searchconsole.googleapis.com', title: 'Google Search Console API', scope: 'https://www.googleapis.com/auth/webmasters.readonly' },
} as const;

/** The project number gcloud's own OAuth client bills to: user credentials without a quota project land there. */
const GCLOUD_SHARED_PROJECT = 'projects/764086051850';

/** A verdict for a 403 that names its cause, or undefined for a plain permission refusal left to the caller. */
export function setupVerdict(failure: GoogleFailure, context: GoogleSetupContext): FailureVerdict | undefined {
  const api = APIS[context.source];
  const reason = failure.reasons.find((r) => r === r.toUpperCase() && r.includes('_'));
  const consumer = failure.errorMetadata.consumer ?? '';
  const projectOf = (value: string) => value.replace(/^projects\//, '');
  if ((reason === 'SERVICE_DISABLED' && consumer === GCLOUD_SHARED_PROJECT) || /requires a quota project/i.test(failure.message)) {
    return verdict('upstream_quota_project_required', failure, context,
      `The stored ${name(context)} credential is a user credential without a quota project, and the ${api.title} requires one. Add "quota_project_id": "<your Cloud project id>" to the credential JSON (or run \`gcloud auth application-default set-quota-project <project>\` and use the new file), make sure the ${api.title} is enabled there, and store the credential again.`);
  }
  if (reason === 'SERVICE_DISABLED') {
    const project = projectOf(failure.errorMetadata.containerInfo ?? consumer) || 'of the credential';
    const service = failure.errorMetadata.service ?? api.service;
    const title = failure.errorMetadata.serviceTitle ?? api.title;
    return verdict('upstream_api_disabled', failure, context,
      `The ${title} is not enabled in Google Cloud project ${project}. Enable it at https://console.cloud.google.com/apis/library/${service}?project=${project}, wait a few minutes, then retry.`);
  }
  if (reason === 'USER_PROJECT_DENIED') {
    const project = projectOf(consumer) || 'named in quota_project_id';
    return verdict('upstream_quota_project_denied', failure, context,
      `Quota project ${project} may not be used by ${context.account}. Grant that account the Service Usage Consumer role (roles/serviceusage.serviceUsageConsumer) on that project, or set quota_project_id to a project it may use, then store the credential again.`);
  }
  if (reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' || /insufficient authentication scopes/i.test(failure.message)) {
    return verdict('upstream_scope_insufficient', failure, context,
      `The stored ${name(context)} credential was granted without the scope ${api.scope}. Reconnect and allow read-only access to ${context.source === 'analytics' ? 'Google Analytics' : 'Search Console'} (a service account needs no change: its token always carries the scope).`);
  }
  return undefined;
}

/** A plain PERMISSION_DENIED on the property or site: the credential's account is not a user of it. */
export function permissionDeniedVerdict(failure: GoogleFailure, context: GoogleSetupContext): FailureVerdict {
  const detail =
    context.source === 'analytics'
      ? `No access to analytics property ${context.target} for ${context.account}. In Google Analytics, Admin → Property access management, add that account with the Viewer role (or check the property id).`
      : `No permission for Search Console property '${context.target}' for ${context.account}. In Search Console, Settings → Users and permissions, add that account (Restricted is enough), or check the property: https://www.example.com/ and sc-domain:example.com are different properties.`;
  return verdict('upstream_permission_denied', failure, context, detail);
}

function verdict(code: ErrorCode, failure: GoogleFailure, context: GoogleSetupContext, detail: string): FailureVerdict {
  return {
    error: new AppError(code, detail, {
      provider: context.source,
      upstream: { status: failure.rpcStatus ?? null, reason: failure.reasons[0] ?? null, message: failure.message },
    }),
    retryable: false,
    upstreamFault: false,
    status: failure.status,
  };
}

const name = (context: GoogleSetupContext) => SOURCE_DISPLAY_NAMES[context.source];
