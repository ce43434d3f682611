// Who is calling: the account behind an API key or OAuth token, what it may do (scopes) and see (projects).
import { AppError } from '../errors/app-error.ts';
import type { Scope } from './scopes.ts';

export interface Principal {
  kind: 'api_key' | 'oauth';
  accountId: string;
  /** The API key id or OAuth token/grant id: what rate limits and audit entries are keyed on. */
  credentialId: string;
  scopes: ReadonlySet<Scope>;
  /** Restriction of the credential; null = every project the account has access to. */
  projectKeys: ReadonlySet<string> | null;
  rateLimitPerMinute?: number;
  /** Epoch ms. */
  expiresAt?: number;
}

/** Throws 403 insufficient_scope naming the scope (also in WWW-Authenticate, RFC 6750 §3.1). */
export function requireScope(principal: Principal, scope: Scope): void {
  if (principal.scopes.has(scope)) return;
  throw new AppError('insufficient_scope', `This request needs the '${scope}' scope, which this credential does not have.`, {
    headers: { 'WWW-Authenticate': `Bearer realm="siteline", error="insufficient_scope", scope="${scope}"` },
  });
}
