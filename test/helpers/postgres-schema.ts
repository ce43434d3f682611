// A throwaway PostgreSQL schema on TEST_DATABASE_URL's database: a connection URL whose search_path points at it,
// and a drop() for cleanup, so parallel test files and runtimes never see each other's tables. Under vitest the
// drops wait for the end of the run (global-setup.ts): a drop racing another worker's migration breaks it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface PostgresSchema {
  /** The database URL with `-c search_path=<schema>`, for DATABASE_URL / openDatabase. */
  url: string;
  drop(): Promise<void>;
}

async function run(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Set by test/helpers/global-setup.ts: that run drops its schemas at the end, so drop() leaves them until then. */
const RUN = process.env.TEST_SCHEMA_RUN;

export async function createPostgresSchema(databaseUrl: string, namePrefix = 't'): Promise<PostgresSchema> {
  const schema = `${namePrefix}_${RUN ?? 'solo'}_${randomBytes(6).toString('hex')}`;
  await run(databaseUrl, `create schema ${schema}`);
  const target = new URL(databaseUrl);
  target.searchParams.set('options', `-c search_path=${schema}`);
  const drop = RUN === undefined ? () => run(databaseUrl, `drop schema if exists ${schema} cascade`) : async () => {};
  return { url: target.href, drop };
}
