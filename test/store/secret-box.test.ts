import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretKey, SecretBoxError } from '../../src/store/secret-box.ts';
import { thrownBy } from '../domain/expect-app-error.ts';

/** The SecretBoxError `fn` throws; its message must contain `text`. */
function expectSecretBoxError(fn: () => unknown, text: string): void {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(SecretBoxError);
  expect((error as SecretBoxError).message).toContain(text);
}

const box = createSecretBox(randomBytes(32));

describe('secret box', () => {
  it('round-trips with a fresh IV each time', () => {
    const a = box.seal('{"private_key":"…"}', 'p1:analytics');
    const b = box.seal('{"private_key":"…"}', 'p1:analytics');
    expect(a).toMatch(/^v1:/);
    expect(a).not.toBe(b);
    expect(box.open(a, 'p1:analytics')).toBe('{"private_key":"…"}');
  });

  it('refuses the wrong additional data, a flipped bit, another key and unknown versions', () => {
    const sealed = box.seal('secret', 'p1:engine2');
    expectSecretBoxError(() => box.open(sealed, 'p2:engine2'), 'could not be authenticated');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const index of [0, 12, 28, raw.length - 1]) {
      const flipped = Buffer.from(raw);
      flipped[index] = (flipped[index] ?? 0) ^ 0x01;
      expect(thrownBy(() => box.open(`v1:${flipped.toString('base64url')}`, 'p1:engine2'))).toBeInstanceOf(SecretBoxError);
    }
    expectSecretBoxError(() => createSecretBox(randomBytes(32)).open(sealed, 'p1:engine2'), 'could not be authenticated');
    expectSecretBoxError(() => box.open(sealed.replace(/^v1:/, 'v9:'), 'p1:engine2'), 'Unknown ciphertext format');
    expectSecretBoxError(() => createSecretBox(randomBytes(16)), 'at least 32 bytes');
  });
});

describe('loadSecretKey', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'siteline-key-'));
    dirs.push(dir);
    return dir;
  };

  it('uses SITELINE_SECRET_KEY (base64 or base64url) when set', () => {
    const key = randomBytes(32);
    expect(loadSecretKey({ SITELINE_SECRET_KEY: key.toString('base64'), DATA_DIR: tempDir() }).equals(key)).toBe(true);
    expect(loadSecretKey({ SITELINE_SECRET_KEY: key.toString('base64url'), DATA_DIR: tempDir() }).equals(key)).toBe(true);
    expectSecretBoxError(() => loadSecretKey({ SITELINE_SECRET_KEY: randomBytes(16).toString('base64'), DATA_DIR: tempDir() }), 'at least 32 bytes');
  });

  it('otherwise generates DATA_DIR/secret-key once, mode 0600, and reuses it', () => {
    const dir = join(tempDir(), 'nested');
    const first = loadSecretKey({ SITELINE_SECRET_KEY: undefined, DATA_DIR: dir });
    const second = loadSecretKey({ SITELINE_SECRET_KEY: undefined, DATA_DIR: dir });
    expect(first.length).toBe(32);
    expect(second.equals(first)).toBe(true);
    expect(statSync(join(dir, 'secret-key')).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(join(dir, 'secret-key'), 'utf8').trim(), 'base64').equals(first)).toBe(true);
  });
});
