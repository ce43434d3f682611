// Encryption at rest for provider credentials: AES-256-GCM, random 12-byte IV, `v1:` versioned envelope, and
// additional data binding each ciphertext to its row (so it cannot be moved to another project or source).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Settings } from '../config/settings.ts';

export interface SecretBox {
  /** Encrypts `plaintext`; `aad` must be given again, unchanged, to open it. */
  seal(plaintext: string, aad: string): string;
  /** Throws SecretBoxError when the ciphertext, its tag or the additional data do not match. */
  open(sealed: string, aad: string): string;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The master key is never used directly: each use derives its own sub-key (HKDF-SHA256, `info` names the use). */
export function deriveSubKey(masterKey: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), info, 32));
}

export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length < 32) throw new SecretBoxError('The secret key must be at least 32 bytes');
  const key = deriveSubKey(masterKey, 'siteline credential encryption v1');
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed, aad) {
      const [version, payload] = sealed.split(':');
      if (version !== VERSION || payload === undefined) throw new SecretBoxError('Unknown ciphertext format');
      const raw = Buffer.from(payload, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('Ciphertext too short');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('Ciphertext could not be authenticated (wrong key, tampered data or wrong row)');
      }
    },
  };
}

function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  // base64 and base64url share an alphabet except +/ vs -_; Buffer's base64 decoder accepts both.
  const key = Buffer.from(trimmed, 'base64');
  if (key.length < 32) throw new SecretBoxError('The secret key must decode to at least 32 bytes (base64 or base64url)');
  return key;
}

/**
 * The master secret: SITELINE_SECRET_KEY when set; otherwise `<DATA_DIR>/secret-key`, generated once
 * (mode 0600, exclusive create so two starting processes agree) and reused on every later start.
 */
export function loadSecretKey(settings: Pick<Settings, 'SITELINE_SECRET_KEY' | 'DATA_DIR'>): Buffer {
  if (settings.SITELINE_SECRET_KEY) return decodeKey(settings.SITELINE_SECRET_KEY);
  const dir = resolve(settings.DATA_DIR);
  const file = join(dir, 'secret-key');
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey(readFileSync(file, 'utf8'));
}
