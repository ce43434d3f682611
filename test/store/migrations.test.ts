import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { sqlitePathOf } from '../../src/store/database.ts';
import { describeEachDatabase } from './databases.ts';

const TABLES = ['accounts', 'api_keys', 'projects', 'data_sources', 'account_projects', 'funnels', 'audit_log'];

describe('migration table', () => {
  it('names migrations NNNN-name in apply order', () => {
    const names = Object.keys(MIGRATIONS);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toMatch(/^\d{4}-[a-z0-9-]+$/);
    expect([...names].sort()).toEqual(names);
  });
});

describe('sqlitePathOf', () => {
  it('defaults to DATA_DIR/siteline.sqlite and understands file: URLs', () => {
    expect(sqlitePathOf(undefined, '/srv/data')).toBe('/srv/data/siteline.sqlite');
    expect(sqlitePathOf('file:///var/lib/s.db', '/x')).toBe('/var/lib/s.db');
    expect(sqlitePathOf('/tmp/a.sqlite', '/x')).toBe('/tmp/a.sqlite');
    expect(sqlitePathOf(':memory:', '/x')).toBe(':memory:');
  });
});

describeEachDatabase('migrations', (fresh) => {
  it('migrates an empty database up to every table', async () => {
    const { store } = await fresh();
    const schema = store.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(store.db)).rows[0]?.s : undefined;
    const tables = (await store.db.introspection.getTables()).filter((t) => schema === undefined || t.schema === schema).map((t) => t.name);
    for (const table of TABLES) expect(tables).toContain(table);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS));
  });

  it('re-opens idempotently, keeping data and applying nothing twice', async () => {
    const { store, database } = await fresh();
    await store.db.insertInto('projects').values({ id: 'p1', key: 'kept', name: 'Kept', domain: 'kept.example', timezone: 'UTC', currency: 'USD', created_at: new Date().toISOString() }).execute();
    const again = await database.open();
    const applied = await sql<{ n: number | string }>`select count(*) as n from kysely_migration`.execute(again.db);
    expect(Number(applied.rows[0]?.n)).toBe(Object.keys(MIGRATIONS).length);
    expect(await again.db.selectFrom('projects').select('key').execute()).toEqual([{ key: 'kept' }]);
  });

  it('enforces foreign keys', async () => {
    const { store } = await fresh();
    await expect(
      store.db.insertInto('account_projects').values({ account_id: 'nobody', project_id: 'nothing', created_at: new Date().toISOString() }).execute(),
    ).rejects.toThrow();
  });
});
