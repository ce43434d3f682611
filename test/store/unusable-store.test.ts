// First-run errors: an unusable data directory or database is one line naming the path and the fix, exit code 2.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dependencyUnavailable } from '../../src/errors/app-error.ts';
import { unreachableDatabase, unusableDataDir } from '../../src/store/unusable-store.ts';

const scratch = mkdtempSync(join(tmpdir(), 'siteline-unusable-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  const child = spawnSync(process.execPath, ['src/main.ts'], {
    cwd: process.cwd(),
    encoding: 'utf8',
    timeout: 15_000,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', PORT: '0', SITELINE_SANDBOX: 'off', ...env },
  });
  return { status: child.status, lines: child.stderr.trim().split('\n') };
}

describe('starting with a store that cannot be used', () => {
  it('names the data directory, the setting and the fix when a file is in the way', () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a directory');
    const { status, lines } = start({ DATA_DIR: join(file, 'data') });
    expect(status).toBe(2);
    expect(lines).toEqual([`Cannot use the data directory ${join(file, 'data')} (DATA_DIR): a file is in the way of the directory. Fix: remove that file, or set DATA_DIR to another directory.`]);
  });

  it('names the database address (never its password) when PostgreSQL does not answer', () => {
    const { status, lines } = start({ DATA_DIR: join(scratch, 'pg'), DATABASE_URL: 'postgres://siteline:hunter2@127.0.0.1:1/siteline', SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(status).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Cannot use the database at 127\.0\.0\.1:1\/siteline \(DATABASE_URL\): it does not answer\. Fix: /);
    expect(lines[0]).not.toContain('hunter2');
  });
});

describe('the messages', () => {
  it.each([
    [{ code: 'ENOSPC', syscall: 'write' }, 'the disk is full', 'free some space'],
    [{ code: 'EROFS', syscall: 'open' }, 'the file system is read-only', 'writable volume'],
    [{ code: 'EACCES', syscall: 'mkdir' }, 'permission denied', 'make it writable'],
    [dependencyUnavailable('down', Object.assign(new Error('database or disk is full'), { errcode: 13 })), 'the disk is full', 'free some space'],
    [Object.assign(new Error('attempt to write a readonly database'), { errcode: 8 }), 'permission denied', 'make it writable'],
  ])('%o → %s', (error, reason, fix) => {
    const message = unusableDataDir('/srv/siteline', 'DATA_DIR', error).message;
    expect(message).toContain(`/srv/siteline (DATA_DIR): ${reason}.`);
    expect(message).toContain(fix);
    expect(message).not.toContain('\n');
  });

  it('says why PostgreSQL refused', () => {
    expect(unreachableDatabase('postgres://u:p@db:5432/app', { code: '28P01' }).message).toBe(
      'Cannot use the database at db:5432/app (DATABASE_URL): authentication failed. Fix: check the user and password in DATABASE_URL.',
    );
    expect(unreachableDatabase('postgres://db/app', { code: '3D000' }).message).toContain('the database does not exist');
  });
});
