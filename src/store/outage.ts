// Tells "the database is away" (unreachable, restarting, out of connections, its disk full or read-only) from
// every other database error, and turns it into the expected 503 `dependency_unavailable` at the driver seam:
// every caller — REST, MCP, GraphQL, the account pages — then reports an outage the same way without knowing
// about drivers, and nothing is reported as a 500.
import type { DatabaseConnection, Dialect, Driver } from 'kysely';
import { dependencyUnavailable, isDependencyUnavailable } from '../errors/app-error.ts';

/** Socket-level failures of the connection to PostgreSQL. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** SQLSTATE classes 08 (connection exception) and 53 (insufficient resources: disk full, too many connections), and 57P01–03 (shutting down, cannot connect now). */
const SQLSTATE_OUTAGE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[1-3])$/;
/** node-postgres and pg-pool say these without a code. */
const DRIVER_MESSAGES = /Connection terminated|Connection ended unexpectedly|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end/i;
/** SQLite primary result codes: BUSY, LOCKED, NOMEM, READONLY, IOERR, FULL, CANTOPEN. */
const SQLITE_OUTAGE = new Set([5, 6, 7, 8, 10, 13, 14]);

export function isStoreOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (isDependencyUnavailable(error)) return true;
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATE_OUTAGE.test(e.code))) return true;
  if (typeof e.errcode === 'number' && SQLITE_OUTAGE.has(e.errcode & 0xff)) return true;
  return typeof e.message === 'string' && DRIVER_MESSAGES.test(e.message);
}

const OUTAGE_DETAIL = "Siteline's database is unavailable right now, so this request could not be completed and nothing was changed. Retry in a few seconds.";

async function translated<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isStoreOutage(error) && !isDependencyUnavailable(error)) throw dependencyUnavailable(OUTAGE_DETAIL, error);
    throw error;
  }
}

/** The dialect with every driver call's outage errors translated to `dependency_unavailable`. */
export function withOutageErrors(dialect: Dialect): Dialect {
  return {
    createDriver: () => translatingDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

function translatingDriver(driver: Driver): Driver {
  // The driver's own methods need its own connection objects (private fields), never our wrappers.
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const own = (connection: DatabaseConnection) => inner.get(connection) ?? connection;
  const wrapped: Driver = {
    init: (options) => translated(() => driver.init(options)),
    async acquireConnection(options) {
      const connection = await translated(() => driver.acquireConnection(options));
      const wrapper: DatabaseConnection = {
        executeQuery: (query, queryOptions) => translated(() => connection.executeQuery(query, queryOptions)),
        streamQuery: (query, chunkSize, queryOptions) => connection.streamQuery(query, chunkSize, queryOptions),
        ...(connection.cancelQuery ? { cancelQuery: (provider) => connection.cancelQuery!(provider) } : {}),
        ...(connection.killSession ? { killSession: (provider) => connection.killSession!(provider) } : {}),
        ...(connection.collectSessionInfo ? { collectSessionInfo: () => connection.collectSessionInfo!() } : {}),
      };
      inner.set(wrapper, connection);
      return wrapper;
    },
    beginTransaction: (connection, settings) => translated(() => driver.beginTransaction(own(connection), settings)),
    commitTransaction: (connection) => translated(() => driver.commitTransaction(own(connection))),
    rollbackTransaction: (connection) => translated(() => driver.rollbackTransaction(own(connection))),
    releaseConnection: (connection, options) => driver.releaseConnection(own(connection), options),
    destroy: (options) => driver.destroy(options),
  };
  if (driver.savepoint) wrapped.savepoint = (connection, name, compile) => translated(() => driver.savepoint!(own(connection), name, compile));
  if (driver.rollbackToSavepoint) wrapped.rollbackToSavepoint = (connection, name, compile) => translated(() => driver.rollbackToSavepoint!(own(connection), name, compile));
  if (driver.releaseSavepoint) wrapped.releaseSavepoint = (connection, name, compile) => translated(() => driver.releaseSavepoint!(own(connection), name, compile));
  return wrapped;
}
