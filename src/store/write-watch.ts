// Tells the caller after a statement changed rows of a watched table, whoever ran it (repository, CLI command,
// account page): caches of what those tables hold are dropped by this one mechanism, not by every writer
// remembering to. A Kysely plugin, so it sees every insert/update/delete built with the query builder.
import type { Store } from './database.ts';
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

export type WriteListener = (table: string) => void;

interface TableLike extends OperationNode {
  table?: { identifier?: { name?: string } };
  froms?: readonly OperationNode[];
}

/** The table a write statement changes, if it is one. */
function writtenTable(node: RootOperationNode): string | undefined {
  const target = node.kind === 'InsertQueryNode' ? node.into : node.kind === 'UpdateQueryNode' ? node.table : node.kind === 'DeleteQueryNode' ? node.from.froms[0] : undefined;
  return (target as TableLike | undefined)?.table?.identifier?.name;
}

export function watchWrites(tables: readonly string[], onWrite: WriteListener): KyselyPlugin {
  const watched = new Set(tables);
  const pending = new WeakMap<object, string>();
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const table = writtenTable(args.node);
      if (table !== undefined && watched.has(table)) pending.set(args.queryId, table);
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const table = pending.get(args.queryId);
      // A conditional write that matched nothing (e.g. a status that did not change) changes nothing.
      if (table !== undefined && args.result.numAffectedRows !== 0n) onWrite(table);
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
