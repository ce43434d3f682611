// The databases every store test runs against: SQLite in a temp folder always, PostgreSQL when
// TEST_DATABASE_URL is set (each opening gets its own schema, so parallel test files never collide).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, afterAll } from 'vitest';
import { openDatabase } from '../../src/store/database.ts';
import type { Store, StoreDialect } from '../../src/store/database.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export interface FreshDatabase {
  dialect: StoreDialect;
  url: string;
  dataDir: string;
  /** Opens (and migrates) the database; every store opened is closed by cleanup(). */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

export async function createFreshDatabase(dialect: StoreDialect): Promise<FreshDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'siteline-store-'));
  const opened: Store[] = [];
  let url = join(dataDir, 'siteline.sqlite');
  let dropSchema = async () => {};
  if (dialect === 'postgres') {
    if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const target = new URL(TEST_DATABASE_URL);
    target.searchParams.set('options', `-c search_path=${schema}`);
    url = target.href;
    dropSchema = async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    };
  }
  return {
    dialect,
    url,
    dataDir,
    async open() {
      const store = await openDatabase({ url, dataDir });
      opened.push(store);
      return store;
    },
    async cleanup() {
      await Promise.all(opened.splice(0).map((s) => s.close().catch(() => {})));
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const DIALECTS: ReadonlyArray<{ dialect: StoreDialect; skip: boolean }> = [
  { dialect: 'sqlite', skip: false },
  { dialect: 'postgres', skip: !TEST_DATABASE_URL },
];

/**
 * Runs `suite` once per database. `fresh()` gives a new, migrated, empty database for a test; everything is
 * cleaned up after the suite. PostgreSQL is reported as skipped when TEST_DATABASE_URL is unset.
 */
export function describeEachDatabase(title: string, suite: (fresh: () => Promise<{ store: Store; database: FreshDatabase }>) => void): void {
  for (const { dialect, skip } of DIALECTS) {
    describe.skipIf(skip)(`${title} [${dialect}]`, () => {
      const created: FreshDatabase[] = [];
      afterAll(async () => {
        await Promise.all(created.map((d) => d.cleanup()));
      });
      suite(async () => {
        const database = await createFreshDatabase(dialect);
        created.push(database);
        return { store: await database.open(), database };
      });
    });
  }
}
