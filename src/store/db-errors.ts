// Recognises database errors the repositories translate into expected AppErrors.

/** A UNIQUE / PRIMARY KEY violation on PostgreSQL (SQLSTATE 23505) or SQLite. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (e.code === '23505') return true;
  // node:sqlite: code 'ERR_SQLITE_ERROR', errcode 2067 (SQLITE_CONSTRAINT_UNIQUE) or 1555 (…_PRIMARYKEY).
  if (e.errcode === 2067 || e.errcode === 1555) return true;
  return typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed');
}

/** Which constraint or column the unique violation names, when the driver says (for precise messages). */
export function uniqueViolationTarget(error: unknown): string {
  const e = error as { constraint?: unknown; message?: unknown };
  if (typeof e.constraint === 'string') return e.constraint;
  return typeof e.message === 'string' ? e.message : '';
}
