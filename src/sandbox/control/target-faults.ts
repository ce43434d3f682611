// Fault switches for one property or site (keyed by GA property id, Search Console site URL or Bing site URL):
// its own 5xx rate and 429 burst, a named misconfiguration answered with the provider's exact error body, and
// property settings (time zone, currency, extra hosts) that differ from the catalogue.
import { z } from 'zod';

export const NAMED_FAILURES = [
  /** 403 SERVICE_DISABLED: the API is not enabled in the caller's Cloud project. */
  'service_disabled',
  /** 403 ACCESS_TOKEN_SCOPE_INSUFFICIENT: the token lacks the API's scope. */
  'scope_insufficient',
  /** 403 SERVICE_DISABLED on Google's shared gcloud project: user credentials without a quota project (no x-goog-user-project). */
  'quota_project_required',
  /** 403 USER_PROJECT_DENIED: the quota project named in x-goog-user-project may not be used by the caller. */
  'user_project_denied',
  /** 403 PERMISSION_DENIED: the credential is not a user of the property / site. */
  'permission_denied',
  /** GA 429: tokens per hour spent. */
  'hourly_tokens',
  /** GA 429: tokens per day spent. */
  'daily_tokens',
  /** Search Console 403: load quota exceeded. */
  'load_quota',
  /** Bing ErrorCode 14 NotAuthorized (site not verified for the key's account). */
  'not_authorized',
  /** Bing ErrorCode 7 InvalidUrl. */
  'invalid_url',
  /** Bing ErrorCode 6 UserBlocked. */
  'user_blocked',
] as const;
export type NamedFailure = (typeof NAMED_FAILURES)[number];

export interface TargetFaults {
  errorRate?: number;
  burst429?: number;
  failure?: NamedFailure;
  /** GA property settings: reports, metadata and hour buckets follow them. */
  timeZone?: string;
  currencyCode?: string;
  /**
   * Origins (scheme + host) the site's page URLs are spread over, e.g. www and apex for an `sc-domain:` property;
   * each page keeps one host, chosen by its path.
   */
  hosts?: string[];
}

export const targetFaultsSchema = z.strictObject({
  errorRate: z.number().min(0).max(1),
  burst429: z.number().int().min(0),
  failure: z.enum(NAMED_FAILURES).nullable(),
  timeZone: z.string().refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'not an IANA time zone'),
  currencyCode: z.string().regex(/^[A-Z]{3}$/),
  hosts: z.array(z.url({ protocol: /^https?$/ })).min(1),
}).partial();

/** Patch semantics: keys merge into the target's switches; `failure: null` clears the named failure; `{}` for a target clears it. */
export function applyTargetPatch(current: Record<string, TargetFaults>, patch: Record<string, z.infer<typeof targetFaultsSchema>>): Record<string, TargetFaults> {
  const next = structuredClone(current);
  for (const [target, faults] of Object.entries(patch)) {
    if (Object.keys(faults).length === 0) {
      delete next[target];
      continue;
    }
    const merged: TargetFaults = { ...next[target], ...faults, failure: faults.failure === null ? undefined : (faults.failure ?? next[target]?.failure) };
    next[target] = JSON.parse(JSON.stringify(merged)) as TargetFaults;
  }
  return next;
}
