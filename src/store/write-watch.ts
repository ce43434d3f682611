// Tells the caller after a statement changed rows of a watched table, whoever ran it (repository, CLI command,
// account page): caches of what those tables hold are dropped by this one mechanism, not by every writer
// remembering to. A Kysely plugin, so it sees every insert/update/delete built with the query builder.
import type { Store } from './database.ts';
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** A statement that changed rows: its table, and for an UPDATE the columns it set (what it can have changed). */
export interface CatalogueWrite {
  table: string;
  columns?: readonly string[];
}
export type WriteListener = (write: CatalogueWrite) => void;

interface TableLike extends OperationNode {
  table?: { identifier?: { name?: string } };
  froms?: readonly OperationNode[];
}

interface ColumnUpdateLike {
  column?: { column?: { name?: string } };
}

/** The table a write statement changes, if it is one, and the columns an UPDATE sets. */
function writeOf(node: RootOperationNode): CatalogueWrite | undefined {
  const target = node.kind === 'InsertQueryNode' ? node.into : node.kind === 'UpdateQueryNode' ? node.table : node.kind === 'DeleteQueryNode' ? node.from.froms[0] : undefined;
  const table = (target as TableLike | undefined)?.table?.identifier?.name;
  if (table === undefined) return undefined;
  if (node.kind !== 'UpdateQueryNode') return { table };
  const columns = (node.updates ?? []).map((update) => (update as ColumnUpdateLike).column?.column?.name);
  // A column the plugin cannot name (an expression) could be anything: report the table alone.
  return columns.every((c): c is string => c !== undefined) ? { table, columns } : { table };
}

export function watchWrites(tables: readonly string[], onWrite: WriteListener): KyselyPlugin {
  const watched = new Set(tables);
  const pending = new WeakMap<object, CatalogueWrite>();
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const write = writeOf(args.node);
      if (write !== undefined && watched.has(write.table)) pending.set(args.queryId, write);
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const write = pending.get(args.queryId);
      // A conditional write that matched nothing (e.g. a status that did not change) changes nothing.
      if (write !== undefined && args.result.numAffectedRows !== 0n) onWrite(write);
      return args.result;
    },
  };
}

/** Tables whose rows cached answers show or depend on (who may read which project, its sources, its funnels). */
export const CATALOGUE_TABLES = ['projects', 'account_projects', 'data_sources', 'funnels'] as const;

/** The same store, but every statement that changes a catalogue table is reported to `onWrite` once it ran. */
export function watchCatalogueWrites(store: Store, onWrite: WriteListener): Store {
  return { ...store, db: store.db.withPlugin(watchWrites(CATALOGUE_TABLES, onWrite)) };
}
