// Opens the store: PostgreSQL (pg Pool) for postgres:// URLs, otherwise SQLite through node:sqlite;
// applies pending migrations before handing the Kysely instance out. A store that cannot be used at start
// (unwritable or full directory, unreachable server) is an UnusableStoreError: one line with the fix.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { MigrationResultSet } from 'kysely/migration';
import { createStaticMigrationProvider } from './migrations.ts';
import { isStoreOutage, withOutageErrors } from './outage.ts';
import { assertWritableDir, unreachableDatabase, unusableDataDir } from './unusable-store.ts';
import type { Database } from './schema.ts';
import { createNodeSqliteDialect } from './sqlite-dialect.ts';

export type StoreDialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: StoreDialect;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres://… or postgresql://…; a file path, `file:` URL or `:memory:` for SQLite. Default `<dataDir>/siteline.sqlite`. */
  url?: string | undefined;
  dataDir: string;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /**
   * PostgreSQL: errors of pooled connections, idle or checked out (a server restart ends every one of them);
   * the query that was running fails on its own, this only hears about the connection.
   */
  onConnectionError?: (error: Error) => void;
}

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/** Where the SQLite file lives for a (non-postgres) DATABASE_URL. */
export function sqlitePathOf(url: string | undefined, dataDir: string): string {
  if (!url) return resolve(dataDir, 'siteline.sqlite');
  if (url === ':memory:') return url;
  if (url.startsWith('file://')) return fileURLToPath(url);
  if (url.startsWith('file:')) return resolve(url.slice('file:'.length));
  return resolve(url);
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Store> {
  const unusable = unusableWith(options);
  const store = isPostgresUrl(options.url) ? await openPostgres(options.url, options.onConnectionError) : openSqliteChecked(sqlitePathOf(options.url, options.dataDir), options);
  if (options.migrate !== false) {
    try {
      await migrateToLatest(store.db, store.dialect);
    } catch (error) {
      await store.close();
      throw unusable(error);
    }
  }
  return store;
}

/** The first-run message for a failure that is about the store's surroundings, not about a migration's SQL. */
function unusableWith(options: OpenDatabaseOptions): (error: unknown) => unknown {
  return (error) => {
    const inner = error instanceof MigrationError ? error.cause : error;
    const code = (inner as { code?: unknown } | undefined)?.code;
    if (isPostgresUrl(options.url)) {
      return isStoreOutage(inner) || (typeof code === 'string' && /^(28|3D)/.test(code)) ? unreachableDatabase(options.url, inner) : error;
    }
    const path = sqlitePathOf(options.url, options.dataDir);
    return isStoreOutage(inner) ? unusableDataDir(options.url ? path : resolve(options.dataDir), options.url ? 'DATABASE_URL' : 'DATA_DIR', inner) : error;
  };
}

function openSqliteChecked(path: string, options: OpenDatabaseOptions): Store {
  if (path === ':memory:') return openSqlite(path);
  const setting = options.url ? 'DATABASE_URL' : 'DATA_DIR';
  assertWritableDir(dirname(path), setting);
  try {
    return openSqlite(path);
  } catch (error) {
    throw unusableDataDir(options.url ? path : resolve(options.dataDir), setting, error);
  }
}

/** A request waits at most this long for a connection before it is refused (503) instead of hanging. */
const CONNECT_TIMEOUT_MS = 2_000;

/** node-postgres is loaded only for a PostgreSQL URL: the embedded default never pays for it. */
async function openPostgres(url: string, onConnectionError?: (error: Error) => void): Promise<Store> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  const report = onConnectionError ?? ((error: Error) => console.error('PostgreSQL connection error:', error.message));
  // node-postgres emits 'error' on the pool only for idle clients; a client checked out by a query emits it on
  // itself, and an 'error' event without a listener ends the process. Every client gets its own listener.
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  const db = new Kysely<Database>({ dialect: withOutageErrors(new PostgresDialect({ pool })) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

function openSqlite(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const database = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: 5_000 });
  database.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;');
  // Digests, sessions and sealed credentials live here: readable by the service's user only.
  if (path !== ':memory:') for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
  const db = new Kysely<Database>({ dialect: withOutageErrors(createNodeSqliteDialect(database)) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

async function currentSchema(db: Kysely<Database>): Promise<string | undefined> {
  const result = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return result.rows[0]?.schema ?? undefined;
}

/** Applies every pending migration; throws MigrationError naming the one that failed. */
export async function migrateToLatest(db: Kysely<Database>, dialect: StoreDialect): Promise<MigrationResultSet> {
  // PostgreSQL: pin the migration tables to the connection's schema (search_path). Otherwise kysely's existence
  // check sees the tables of any other schema in the database and never creates this schema's own.
  const migrationTableSchema = dialect === 'postgres' ? await currentSchema(db) : undefined;
  // Unordered: a migration numbered below one already applied (0004 after 0005) is applied, not refused.
  const migrator = new Migrator({ db, provider: createStaticMigrationProvider(), allowUnorderedMigrations: true, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  let result = await migrator.migrateToLatest();
  // kysely first lists the tables of every schema; another process dropping its own schema meanwhile fails that
  // listing ("schema … does not exist") before anything was applied, so it is simply asked again.
  for (let retry = 0; retry < 3 && result.error && result.results === undefined && isSchemaRace(result.error); retry++) {
    await new Promise((settle) => setTimeout(settle, 50 * (retry + 1)));
    result = await migrator.migrateToLatest();
  }
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`Database migration '${failed}' failed`, { cause: result.error });
  }
  return result;
}

/** PostgreSQL's invalid_schema_name: a schema that existed when a catalog query began was dropped by then. */
function isSchemaRace(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '3F000';
}
