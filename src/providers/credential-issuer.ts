// Who issued a provider credential, decided from the credential alone, so each call goes to the one service that
// can honour it: a service-account key to whoever minted that key pair, a refresh token to the authorization server
// of the OAuth client it was issued to (OAuth binds a refresh token to its client, and a client id to the server that
// registered it: every token the sandbox's consent flow mints carries the sandbox's client), a Bing key to whoever
// lists it. The sandbox's own credentials are known from the files it writes; anything else is the real provider's.
import { createHash } from 'node:crypto';
import type { GoogleCredential } from './google-auth.ts';
import { parseGoogleCredential } from './google-auth.ts';

export type Issuer = 'sandbox' | 'provider';

/** The credential files a sandbox writes: service-account key JSON, OAuth client JSON, Bing key. */
export interface SandboxIssuedCredentials {
  serviceAccountJson: string;
  oauthClientJson: string;
  bingApiKey: string;
}

export type IssuedCredential = GoogleCredential | { kind: 'api_key'; apiKey: string };

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('base64url');

/** A function naming the issuer of any credential; without a sandbox every credential is the real provider's. */
export function createIssuerLookup(sandbox: SandboxIssuedCredentials | undefined): (credential: IssuedCredential) => Issuer {
  if (sandbox === undefined) return () => 'provider';
  const serviceAccount = parseGoogleCredential(sandbox.serviceAccountJson, 'analytics');
  const oauthClient = parseGoogleCredential(sandbox.oauthClientJson, 'analytics');
  const keyPairs = new Set(serviceAccount.kind === 'service_account' ? [digest(serviceAccount.clientEmail, serviceAccount.privateKey)] : []);
  const clientIds = new Set(oauthClient.kind === 'oauth_refresh' ? [oauthClient.clientId] : []);
  const bingKeys = new Set([digest(sandbox.bingApiKey.trim())]);
  return (credential) => {
    const issuedHere =
      credential.kind === 'service_account'
        ? keyPairs.has(digest(credential.clientEmail, credential.privateKey))
        : credential.kind === 'oauth_refresh'
          ? clientIds.has(credential.clientId)
          : bingKeys.has(digest(credential.apiKey.trim()));
    return issuedHere ? 'sandbox' : 'provider';
  };
}
