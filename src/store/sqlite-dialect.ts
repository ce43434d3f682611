// A kysely dialect over Node's built-in `node:sqlite` (DatabaseSync): kysely's own SqliteDialect speaks the
// better-sqlite3 statement API, so this adapts DatabaseSync to it. Kysely's RuntimeDriver serialises access to
// the single connection (SqliteAdapter.supportsMultipleConnections is false), which also keeps transactions whole.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

function toSqliteValue(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

function toStatement(statement: StatementSync): SqliteStatement {
  const bind = (parameters: ReadonlyArray<unknown>): SQLInputValue[] => parameters.map(toSqliteValue);
  return {
    // A statement that yields columns is a reader (SELECT, or anything with RETURNING).
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...bind(parameters)),
    run: (parameters) => statement.run(...bind(parameters)),
    iterate: (parameters) => statement.iterate(...bind(parameters)),
  };
}

/** Wraps an open DatabaseSync; `db.destroy()` closes it. */
export function createNodeSqliteDialect(database: DatabaseSync): SqliteDialect {
  const adapted: SqliteDatabase = {
    close: () => {
      if (database.isOpen) database.close();
    },
    prepare: (sql) => toStatement(database.prepare(sql)),
  };
  return new SqliteDialect({ database: adapted });
}
