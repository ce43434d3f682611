import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { createStaticMigrationProvider, MIGRATIONS } from '../../src/store/migrations.ts';
import { openDatabase, sqlitePathOf } from '../../src/store/database.ts';
import { createFreshDatabase, describeEachDatabase } from './databases.ts';

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

  it('applies 0004-brand-terms to a database that already ran 0005 (written after it shipped)', async () => {
    const { store } = await fresh();
    const database = await createFreshDatabase(store.dialect);
    try {
      const old = await openDatabase({ url: database.url, dataDir: database.dataDir, migrate: false });
      const { '0004-brand-terms': _added, ...shipped } = MIGRATIONS;
      const schema = store.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(old.db)).rows[0]?.s : undefined;
      const result = await new Migrator({ db: old.db, provider: createStaticMigrationProvider(shipped), ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest();
      expect(result.error).toBeUndefined();
      await old.db.insertInto('projects').values({ id: 'p1', key: 'kept', name: 'Kept', domain: 'kept.example', timezone: 'UTC', currency: 'USD', created_at: new Date().toISOString() }).execute();
      await old.close();

      const upgraded = await database.open();
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(upgraded.db);
      expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS));
      expect(await upgraded.db.selectFrom('projects').select(['key', 'brand_terms']).execute()).toEqual([{ key: 'kept', brand_terms: null }]);
    } finally {
      await database.cleanup();
    }
  });
});
