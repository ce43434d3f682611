// Vitest global setup: names this run's PostgreSQL schemas and drops them all once every test file is done.
// Dropping a schema while another worker migrates its own one races PostgreSQL's catalog introspection ("schema
// … does not exist" from a query that merely lists tables), so nothing is dropped while tests are running.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export default function setup(): () => Promise<void> {
  const run = randomBytes(4).toString('hex');
  process.env.TEST_SCHEMA_RUN = run;
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like $1`, [`%\\_${run}\\_%`]);
      for (const { name } of rows) await client.query(`drop schema if exists "${name}" cascade`);
    } finally {
      await client.end();
    }
  };
}
