// Vitest global setup: names this run's PostgreSQL schemas and drops them all once every test file is done.
// Dropping a schema while another worker migrates its own one races PostgreSQL's catalog introspection ("schema
// … does not exist" from a query that merely lists tables), so nothing is dropped while tests are running.
// When TEST_SCHEMA_RUN is already set, whoever set it drops the schemas (CI's two passes run side by side and
// share one name, so neither drops while the other still migrates: see .ci/test-passes).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Drops every schema named for `run`. */
export async function dropRunSchemas(url: string, run: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like $1`, [`%\\_${run}\\_%`]);
    for (const { name } of rows) await client.query(`drop schema if exists "${name}" cascade`);
  } finally {
    await client.end();
  }
}

export default function setup(): (() => Promise<void>) | undefined {
  if (process.env.TEST_SCHEMA_RUN) return undefined;
  const run = randomBytes(4).toString('hex');
  process.env.TEST_SCHEMA_RUN = run;
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (url) await dropRunSchemas(url, run);
  };
}

// `node test/helpers/global-setup.ts <run>`: drops a run's schemas after the passes that shared it have ended.
if (import.meta.main) {
  const [run] = process.argv.slice(2);
  const url = process.env.TEST_DATABASE_URL;
  if (!run || !url) {
    console.error('usage: TEST_DATABASE_URL=… node test/helpers/global-setup.ts <run>');
    process.exit(2);
  }
  await dropRunSchemas(url, run);
}
