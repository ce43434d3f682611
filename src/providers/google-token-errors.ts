// Google token-endpoint refusals → what actually went wrong. Every one reads `invalid_grant` or `invalid_client`;
// the `error_description` tells a revoked token from a deleted key, a wrong clock or an unpublished OAuth app.
import { AppError } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import { SOURCE_DISPLAY_NAMES } from '../domain/sources.ts';
import type { GoogleFailure } from './google-failure.ts';
import type { FailureVerdict } from './upstream-errors.ts';

/** Description patterns (as Google words them) → what to do. First match wins. */
const HINTS: [RegExp, string][] = [
  [
    /expired or revoked/i,
    'The refresh token was revoked (password change, access removed at myaccount.google.com) or has expired: OAuth apps whose consent screen is in "Testing" get refresh tokens that expire after 7 days. Publish the app ("In production") and reconnect the data source.',
  ],
  [/invalid jwt signature/i, 'The service-account key was deleted or replaced in Google Cloud. Create a new JSON key for the service account and store it.'],
  [
    /short-lived token|reasonable timeframe|iat and exp/i,
    "This server's clock is off by more than a few minutes, so Google refuses the signed assertion. Synchronise the clock (NTP) and retry.",
  ],
  [/account not found|invalid_grant: account/i, 'The service account no longer exists. Create a service account and key, add it to the property or site, and store the new key.'],
  [/unauthorized|invalid client/i, 'The OAuth client id or secret is wrong, or the OAuth client was deleted. Store credentials from an existing OAuth client.'],
];

export function tokenVerdict(failure: GoogleFailure, source: Source): FailureVerdict {
  const name = SOURCE_DISPLAY_NAMES[source];
  const code = failure.tokenError ?? `HTTP ${failure.status ?? 0}`;
  const description = failure.message;
  const hint = HINTS.find(([pattern]) => pattern.test(description) || pattern.test(code))?.[1] ?? 'Reconnect the data source.';
  const said = description ? `${code}: ${description}` : code;
  return {
    error: new AppError('upstream_credential_invalid', `Google refused the stored ${name} credential (${said}) ${hint}`, {
      provider: source,
      upstream: { error: failure.tokenError ?? null, message: description },
    }),
    retryable: false,
    upstreamFault: false,
    status: failure.status,
  };
}
