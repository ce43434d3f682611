// PostgreSQL ending a connection that a query has checked out must not end the process: the client's own 'error'
// event has a listener (node-postgres only covers idle clients on the pool).
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.ts';
import { createFreshDatabase, TEST_DATABASE_URL } from './databases.ts';

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL connection errors', () => {
  it('reports a checked-out connection terminated by the server instead of crashing', async () => {
    const fresh = await createFreshDatabase('postgres');
    const heard: string[] = [];
    const store = await openDatabase({ url: fresh.url, dataDir: fresh.dataDir, onConnectionError: (error) => heard.push(error.message) });
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await store.db.connection().execute(async (connection) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
        const ended = new Promise<void>((resolve) => {
          const poll = () => (heard.length > 0 ? resolve() : setTimeout(poll, 10));
          poll();
        });
        await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
        await ended;
        await expect(sql`select 1`.execute(connection)).rejects.toBeInstanceOf(Error);
      });
      expect(heard[0]).toMatch(/terminat/i);
      // The pool replaces the dead connection: the next query works.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
      expect(rows[0]!.one).toBe(1);
    } finally {
      await admin.end();
      await store.close();
      await fresh.cleanup();
    }
  });
});
