// First-run errors that say what to do: a data directory or database Siteline cannot use at start becomes one
// line naming the path (or address), the setting and the fix, instead of a driver's stack trace. main.ts prints
// it and exits with code 2, like a settings error.
import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDependencyUnavailable } from '../errors/app-error.ts';

export class UnusableStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnusableStoreError';
  }
}

interface Diagnosis {
  reason: string;
  fix: string;
}

const WRITABLE_FIX = 'make it writable by the user running Siteline, or set DATA_DIR to a writable directory';

/** errno codes of the file system, and SQLite result codes, in words with a fix. */
function diagnoseFileError(error: unknown): Diagnosis {
  const e = (isDependencyUnavailable(error) ? (error as Error).cause : error) as { code?: unknown; errcode?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  const sqlite = typeof e?.errcode === 'number' ? e.errcode & 0xff : undefined;
  if (code === 'ENOSPC' || code === 'EDQUOT' || sqlite === 13) return { reason: 'the disk is full', fix: 'free some space, or set DATA_DIR to a directory on a disk with room' };
  if (code === 'EROFS') return { reason: 'the file system is read-only', fix: 'set DATA_DIR to a directory on a writable volume' };
  if (code === 'EACCES' || code === 'EPERM' || sqlite === 8) return { reason: 'permission denied', fix: WRITABLE_FIX };
  if (code === 'ENOTDIR' || code === 'EEXIST') return { reason: 'a file is in the way of the directory', fix: 'remove that file, or set DATA_DIR to another directory' };
  if (sqlite === 14 || sqlite === 10) return { reason: 'the database file cannot be opened or written', fix: WRITABLE_FIX };
  if (sqlite === 11 || sqlite === 26) return { reason: 'the file is not a valid SQLite database', fix: 'restore it from a backup, or point DATA_DIR at another directory' };
  const detail = typeof e?.message === 'string' ? e.message.split('\n')[0] : String(error);
  return { reason: detail ?? 'unknown error', fix: WRITABLE_FIX };
}

/** `Cannot use the data directory /abs (DATA_DIR): permission denied. Fix: …`. */
export function unusableDataDir(path: string, setting: 'DATA_DIR' | 'DATABASE_URL', error: unknown): UnusableStoreError {
  const { reason, fix } = diagnoseFileError(error);
  const what = setting === 'DATA_DIR' ? 'the data directory' : 'the database file';
  return new UnusableStoreError(`Cannot use ${what} ${path} (${setting}): ${reason}. Fix: ${fix}.`, { cause: error });
}

/** Creates the directory and proves it takes a write that reaches the disk. */
export function assertWritableDir(dir: string, setting: 'DATA_DIR' | 'DATABASE_URL' = 'DATA_DIR'): void {
  const path = resolve(dir);
  const probe = join(path, `.write-check-${process.pid}`);
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    const fd = openSync(probe, 'w', 0o600);
    try {
      writeSync(fd, 'siteline write check\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw unusableDataDir(path, setting, error);
  } finally {
    try {
      rmSync(probe, { force: true });
    } catch {
      // the probe was never created (the directory is not usable): nothing to clean up
    }
  }
}

/** PostgreSQL at start: where (never the password), what went wrong, what to do. */
export function unreachableDatabase(url: string, error: unknown): UnusableStoreError {
  const target = new URL(url);
  const where = `${target.hostname}:${target.port || '5432'}${target.pathname}`;
  const cause = (isDependencyUnavailable(error) ? (error as Error).cause : error) as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const [reason, fix] =
    code === '28P01' || code === '28000'
      ? ['authentication failed', 'check the user and password in DATABASE_URL']
      : code === '3D000'
        ? ['the database does not exist', 'create it (createdb) or correct the name in DATABASE_URL']
        : code.startsWith('53')
          ? ['the server is out of resources (disk full or too many connections)', 'free disk space or connections on the database server']
          : ['it does not answer', 'start PostgreSQL or correct the host and port in DATABASE_URL; Siteline can be restarted once it is up'];
  return new UnusableStoreError(`Cannot use the database at ${where} (DATABASE_URL): ${reason}. Fix: ${fix}.`, { cause: error });
}
