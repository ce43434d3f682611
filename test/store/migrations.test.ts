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

  it('0007-project-roles gives existing access rows roles: each project\'s earliest admin, later ones editor', async () => {
    const { store } = await fresh();
    const database = await createFreshDatabase(store.dialect);
    try {
      const old = await openDatabase({ url: database.url, dataDir: database.dataDir, migrate: false });
      const shipped = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0007'));
      const schema = store.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(old.db)).rows[0]?.s : undefined;
      expect((await new Migrator({ db: old.db, provider: createStaticMigrationProvider(shipped), ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest()).error).toBeUndefined();
      const at = (minute: number) => `2026-01-01T00:0${minute}:00.000Z`;
      for (const id of ['a1', 'a2', 'a3']) await old.db.insertInto('accounts').values({ id, email: `${id}@example.com`, email_normalized: `${id}@example.com`, name: id, password_hash: null, created_at: at(0) }).execute();
      for (const id of ['p1', 'p2']) await old.db.insertInto('projects').values({ id, key: id, name: id, domain: `${id}.example`, timezone: 'UTC', currency: 'USD', created_at: at(0) }).execute();
      const rows = [['a1', 'p1', 1], ['a2', 'p1', 2], ['a3', 'p1', 3], ['a2', 'p2', 1], ['a3', 'p2', 1]] as const;
      for (const [account, project, minute] of rows) await sql`insert into account_projects (account_id, project_id, created_at) values (${account}, ${project}, ${at(minute)})`.execute(old.db);
      await sql`insert into invites (digest, email, created_by, created_at, expires_at) values ('d1', ' Mate@Example.com ', 'a1', ${at(0)}, ${at(9)})`.execute(old.db);
      await old.close();

      const upgraded = await database.open();
      const roles = await upgraded.db.selectFrom('account_projects').select(['account_id', 'project_id', 'role']).orderBy('project_id').orderBy('account_id').execute();
      expect(roles).toEqual([
        { account_id: 'a1', project_id: 'p1', role: 'admin' },
        { account_id: 'a2', project_id: 'p1', role: 'editor' },
        { account_id: 'a3', project_id: 'p1', role: 'editor' },
        { account_id: 'a2', project_id: 'p2', role: 'admin' },
        { account_id: 'a3', project_id: 'p2', role: 'admin' },
      ]);
      expect(await upgraded.db.selectFrom('invites').select(['email_normalized', 'project_id', 'role']).execute()).toEqual([{ email_normalized: 'mate@example.com', project_id: null, role: null }]);
      // A row written without a role (an older writer) is the least: viewer.
      await sql`insert into account_projects (account_id, project_id, created_at) values ('a1', 'p2', ${at(5)})`.execute(upgraded.db);
      expect((await upgraded.db.selectFrom('account_projects').select('role').where('account_id', '=', 'a1').where('project_id', '=', 'p2').executeTakeFirstOrThrow()).role).toBe('viewer');
    } finally {
      await database.cleanup();
    }
  });
});
