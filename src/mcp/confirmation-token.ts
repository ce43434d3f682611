// Single-use confirmation tokens for create_funnel: HMAC-signed, bound to the calling credential
// and to the exact payload, valid 10 minutes. The token id becomes the funnel's confirmation_id, which the
// store keeps unique, so using a token twice can never create a second funnel.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalidParameter, type AppError } from '../errors/app-error.ts';

export const CONFIRMATION_TTL_SECONDS = 600;
const PREFIX = 'slc1';
const PARAM = 'confirmation_token';
const RETRY = 'Call create_funnel again without confirmation_token to get a fresh preview and token.';

interface Claims {
  /** Token id: the confirmation_id of the funnel it creates. */
  i: string;
  /** HMAC of the credential id (the id itself stays out of the client's hands). */
  c: string;
  /** Payload hash. */
  h: string;
  /** Expiry, epoch seconds. */
  e: number;
}

export interface ConfirmationTokens {
  mint(credentialId: string, payloadHash: string): { token: string; id: string; expiresAt: string };
  /** The token id, or throws invalid_parameter (param confirmation_token) saying what to do instead. */
  verify(token: string, credentialId: string, payloadHash: string): string;
}

/** The hash a token is bound to: the validated project, name and steps, in a fixed order. */
export function payloadHash(payload: unknown): string {
  return createHash('sha256').update(JSON.stringify(payload)).digest('base64url');
}

export function createConfirmationTokens(key: Buffer, clock: () => Date, ttlSeconds = CONFIRMATION_TTL_SECONDS): ConfirmationTokens {
  const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
  const credentialTag = (credentialId: string) => mac(`credential\0${credentialId}`).slice(0, 22);

  return {
    mint(credentialId, hash) {
      const id = `cfm_${randomBytes(16).toString('base64url')}`;
      const expires = Math.floor(clock().getTime() / 1000) + ttlSeconds;
      const body = Buffer.from(JSON.stringify({ i: id, c: credentialTag(credentialId), h: hash, e: expires } satisfies Claims)).toString('base64url');
      return { token: `${PREFIX}.${body}.${mac(`${PREFIX}.${body}`)}`, id, expiresAt: new Date(expires * 1000).toISOString() };
    },
    verify(token, credentialId, hash) {
      const claims = readClaims(token, mac);
      if (!claims) throw refused('This confirmation_token is not valid (it was altered or is not a Siteline token).');
      if (!equal(claims.c, credentialTag(credentialId))) {
        throw refused('This confirmation_token was issued to another API key or login and cannot be used with yours.');
      }
      if (claims.e * 1000 <= clock().getTime()) throw refused(`This confirmation_token expired (tokens are valid for ${ttlSeconds / 60} minutes).`);
      if (!equal(claims.h, hash)) {
        throw refused('This confirmation_token was issued for a different funnel: the project, name or steps changed since the preview.');
      }
      return claims.i;
    },
  };
}

function readClaims(token: string, mac: (text: string) => string): Claims | undefined {
  const [prefix, body, signature, extra] = token.split('.');
  if (prefix !== PREFIX || !body || !signature || extra !== undefined) return undefined;
  if (!equal(signature, mac(`${PREFIX}.${body}`))) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Claims>;
    const valid = typeof claims.i === 'string' && typeof claims.c === 'string' && typeof claims.h === 'string' && typeof claims.e === 'number';
    return valid ? (claims as Claims) : undefined;
  } catch {
    return undefined;
  }
}

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function refused(message: string): AppError {
  return invalidParameter(PARAM, `${message} ${RETRY}`);
}
