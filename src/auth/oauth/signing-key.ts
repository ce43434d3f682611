// The access-token signing key: an ES256 (P-256) key derived from the master secret with HKDF, so every
// instance sharing SITELINE_SECRET_KEY signs and verifies with the same key and nothing extra is stored.
// The public half is published as a JWKS (jwks_uri) for anyone who wants to check tokens offline.
import { createECDH, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { deriveSubKey } from '../../store/secret-box.ts';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public JWK with kid, alg and use, as served at jwks_uri. */
  publicJwk: JWK;
}

export const ACCESS_TOKEN_ALG = 'ES256';

export async function deriveSigningKey(masterKey: Buffer): Promise<SigningKey> {
  // A 32-byte HKDF output is a valid P-256 scalar except with probability ~2^-32; bump the info label if not.
  for (let attempt = 0; ; attempt += 1) {
    const d = deriveSubKey(masterKey, `siteline oauth access-token signing key v1${attempt === 0 ? '' : `/${attempt}`}`);
    let point: Buffer;
    try {
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(d);
      point = ecdh.getPublicKey();
    } catch {
      continue;
    }
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    };
    const privateKey = createPrivateKey({ key: { ...jwk, d: d.toString('base64url') }, format: 'jwk' });
    const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
    const kid = await calculateJwkThumbprint(jwk);
    return { kid, privateKey, publicKey, publicJwk: { ...jwk, kid, alg: ACCESS_TOKEN_ALG, use: 'sig' } };
  }
}
