import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'siteline-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('node:sqlite dialect', () => {
  it('opens in WAL mode with foreign keys on, creating the folder', async () => {
    const store = await openDatabase({ url: undefined, dataDir: join(dir, 'a', 'b') });
    expect(store.dialect).toBe('sqlite');
    expect((await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db)).rows[0]?.journal_mode).toBe('wal');
    expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(store.db)).rows[0]?.foreign_keys).toBe(1);
    await store.close();
  });

  it('serialises concurrent transactions on the single connection and rolls back on error', async () => {
    const store = await openDatabase({ url: `file:${join(dir, 'tx.sqlite')}`, dataDir: dir });
    const now = new Date().toISOString();
    const insert = (key: string) => ({ id: key, key, name: key, domain: `${key}.example`, timezone: 'UTC', currency: 'USD', created_at: now });
    const failing = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('projects').values(insert('rolled-back')).execute();
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('boom');
    });
    const succeeding = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('projects').values(insert('committed')).execute();
    });
    const outside = store.db.insertInto('projects').values(insert('outside')).execute();
    await expect(failing).rejects.toThrow('boom');
    await succeeding;
    await outside;
    const keys = (await store.db.selectFrom('projects').select('key').orderBy('key').execute()).map((r) => r.key);
    expect(keys).toEqual(['committed', 'outside']);
    const returned = await store.db.updateTable('projects').set({ name: 'Renamed' }).where('key', '=', 'outside').returning('name').execute();
    expect(returned).toEqual([{ name: 'Renamed' }]);
    await store.close();
  });
});
