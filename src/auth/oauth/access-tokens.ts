// Access tokens: RFC 9068 JWTs (`typ: at+jwt`, ES256) with `aud` = the MCP resource, `sub` = the account,
// `client_id`, `scope`, `gid` (the grant, checked for revocation on every use) and `exp` one hour out.
import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_ALG, type SigningKey } from './signing-key.ts';

export interface AccessTokenClaims {
  accountId: string;
  clientId: string;
  grantId: string;
  /** Space-separated resource scopes (no offline_access). */
  scope: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export interface AccessTokenCodec {
  issue(claims: Omit<AccessTokenClaims, 'expiresAt'>, nowSec: number): Promise<{ token: string; expiresIn: number }>;
  /** The claims of a token signed by us, for our resource, not expired; undefined otherwise. */
  verify(token: string, nowSec: number): Promise<AccessTokenClaims | undefined>;
}

export function createAccessTokenCodec(options: { key: SigningKey; issuer: string; audience: string; ttlSec: number }): AccessTokenCodec {
  const { key, issuer, audience, ttlSec } = options;
  return {
    async issue(claims, nowSec) {
      const token = await new SignJWT({ client_id: claims.clientId, scope: claims.scope, gid: claims.grantId })
        .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, typ: 'at+jwt', kid: key.kid })
        .setIssuer(issuer)
        .setSubject(claims.accountId)
        .setAudience(audience)
        .setIssuedAt(nowSec)
        .setExpirationTime(nowSec + ttlSec)
        .setJti(randomBytes(16).toString('base64url'))
        .sign(key.privateKey);
      return { token, expiresIn: ttlSec };
    },
    async verify(token, nowSec) {
      try {
        const { payload } = await jwtVerify(token, key.publicKey, {
          issuer,
          audience,
          algorithms: [ACCESS_TOKEN_ALG],
          typ: 'at+jwt',
          currentDate: new Date(nowSec * 1000),
          requiredClaims: ['sub', 'exp', 'client_id', 'scope', 'gid'],
        });
        const { sub, exp, client_id: clientId, scope, gid } = payload;
        if (typeof sub !== 'string' || typeof exp !== 'number' || typeof clientId !== 'string' || typeof scope !== 'string' || typeof gid !== 'string') {
          return undefined;
        }
        return { accountId: sub, clientId, grantId: gid, scope, expiresAt: exp };
      } catch (error) {
        if (error instanceof errors.JOSEError) return undefined;
        throw error;
      }
    },
  };
}
