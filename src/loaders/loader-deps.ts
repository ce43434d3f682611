// What a provider loader may reach, and nothing more: the clock, the provider clients, the store lookups that
// open a data source's credential and record its status, and the execution's view of the cache. The GraphQL
// context satisfies this structurally; loaders never see the principal, the limits or the request.
import type { Kysely } from 'kysely';
import type { CachedFetch } from '../cache/cached-fetch.ts';
import type { Logger } from '../logging/logger.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import type { OutageMemo } from '../store/outage-memo.ts';
import type { Database } from '../store/schema.ts';
import type { SecretBox } from '../store/secret-box.ts';

/** Process-wide services a loader uses (a subset of the app's services). */
export interface LoaderServices {
  readonly clock: () => Date;
  /** Data-source credentials and status live in the database; `box` opens the credentials. */
  readonly db: Kysely<Database>;
  readonly box: SecretBox;
  /** Recent store answers that reads may fall back on while the database is away. */
  readonly storeMemo: OutageMemo;
  readonly logger: Logger;
  readonly providers: ProviderClients;
}

export interface LoaderDeps {
  readonly services: LoaderServices;
  /** The process cache, seen through one execution. */
  readonly cachedFetch: CachedFetch;
}
