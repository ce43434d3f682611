// The databases every store test runs against: SQLite in a temp folder always, PostgreSQL when
// TEST_DATABASE_URL is set (each opening gets its own schema, so parallel test files never collide).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, afterAll } from 'vitest';
import { openDatabase } from '../../src/store/database.ts';
import type { Store, StoreDialect } from '../../src/store/database.ts';
import { createPostgresSchema } from '../helpers/postgres-schema.ts';

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
    const schema = await createPostgresSchema(TEST_DATABASE_URL);
    url = schema.url;
    dropSchema = schema.drop;
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
