// The per-execution context: who is asking, process-wide services, and fresh DataLoaders (never shared
// between executions, so batching and memoisation cannot leak data across callers).
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { SharedState } from '../cache/shared-state.ts';
import type { Logger } from '../logging/logger.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { Database } from '../store/schema.ts';
import { createStoreLoaders, type StoreLoaders } from '../loaders/store-loaders.ts';

/** Process-wide things resolvers may use; created once and injected. */
export interface Services {
  db: Kysely<Database>;
  clock: () => Date;
  logger: Logger;
  /** Opens stored provider credentials. */
  box: SecretBox;
  providers: ProviderClients;
  shared: SharedState;
}

export interface GraphQLContext {
  readonly principal: Principal;
  readonly requestId: string;
  readonly services: Services;
  readonly store: StoreLoaders;
}

export function createGraphQLContext(services: Services, principal: Principal, requestId: string): GraphQLContext {
  return { principal, requestId, services, store: createStoreLoaders(services.db, principal) };
}
