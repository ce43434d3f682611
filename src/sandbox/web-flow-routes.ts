// The web-server-flow surfaces the sandbox adds to its router: the consent page, the code / refresh exchange at
// /token (ahead of the older grants), /revoke and the Admin API's accountSummaries.
import { handleAccountSummaries, isAccountSummaries } from './analytics/admin.ts';
import { ANALYTICS_SCOPES, type TokenClaims } from './auth/access-tokens.ts';
import { handleConsent } from './auth/consent-page.ts';
import type { SandboxCredentials } from './auth/credentials.ts';
import { assertGrantNotRevoked, handleRevoke, handleWebToken } from './auth/web-token-endpoint.ts';
import { createWebGrants, type WebGrants } from './auth/web-grants.ts';
import type { DemoSite } from './catalogue.ts';
import type { FaultSettings, Provider } from './control/fault-settings.ts';

export interface WebFlowRoute {
  provider: Provider;
  method: string;
  scopes?: readonly string[];
  service?: string;
  run: (claims: TokenClaims | undefined, now: Date) => Promise<Response> | Response;
}

export interface WebFlowDeps {
  catalogue: readonly DemoSite[];
  credentials: SandboxCredentials;
  revoked: () => FaultSettings['revoked'];
}

export interface WebFlow {
  grants: WebGrants;
  /** The route for this request, when it is one of the web flow's. */
  resolve(request: Request, url: URL): WebFlowRoute | undefined;
  /** For every Google API call: a revoked grant's access tokens are refused. */
  assertNotRevoked(request: Request, now: Date): void;
  /** The older /token handler runs when this answers undefined. */
  token(request: Request, now: Date): Promise<Response | undefined>;
}

export function createWebFlow(deps: WebFlowDeps): WebFlow {
  const grants = createWebGrants(deps.credentials);
  return {
    grants,
    resolve(request, url) {
      if (url.pathname === '/o/oauth2/v2/auth') return { provider: 'token', method: 'authorize', run: (_c, now) => handleConsent(request, url, deps.credentials, grants, now) };
      if (url.pathname === '/revoke') return { provider: 'token', method: 'revoke', run: (_c, now) => handleRevoke(request, url, deps.credentials, grants, now) };
      if (isAccountSummaries(request.method, url.pathname)) {
        return {
          provider: 'analytics', method: 'accountSummaries.list', scopes: ANALYTICS_SCOPES, service: 'analyticsadmin.googleapis.com',
          run: () => handleAccountSummaries(url, deps.catalogue),
        };
      }
      return undefined;
    },
    assertNotRevoked(request, now) {
      assertGrantNotRevoked(request, deps.credentials, grants, now);
    },
    token(request, now) {
      return handleWebToken(request, deps.credentials, grants, deps.revoked().oauth, now);
    },
  };
}
