// Builds the OAuth authorization server and the account pages' session manager from the runtime's pieces;
// signing and CSRF keys are derived from the master secret (nothing extra to configure or store).
import type { Kysely } from 'kysely';
import type { ApiKeyService } from '../auth/api-keys.ts';
import { defineOAuthServer } from '../auth/oauth/oauth-config.ts';
import { createOAuthServer } from '../auth/oauth/oauth-server.ts';
import { deriveSigningKey } from '../auth/oauth/signing-key.ts';
import type { Limits } from '../limits/create-limits.ts';
import type { Database } from '../store/schema.ts';
import { deriveSubKey } from '../store/secret-box.ts';
import { createSessionManager } from './sessions.ts';
import type { WebDeps } from './web-deps.ts';

export interface CreateWebDepsOptions {
  db: Kysely<Database>;
  clock: () => Date;
  logger: WebDeps['logger'];
  publicUrl: string;
  /** The origins a browser may reach the server at (cookies, forms and Origin checks accept each). */
  siteOrigins: readonly string[];
  masterKey: Buffer;
  apiKeys: ApiKeyService;
  limits: Pick<Limits, 'consumePolicy' | 'peekPolicy' | 'refundPolicy'>;
}

export async function createWebDeps(options: CreateWebDepsOptions): Promise<WebDeps> {
  const { db, clock, logger, publicUrl, siteOrigins, masterKey, apiKeys, limits } = options;
  const oauth = createOAuthServer({ db, config: defineOAuthServer(publicUrl), signingKey: await deriveSigningKey(masterKey), clock, limits, logger });
  const sessions = createSessionManager({ db, clock, publicUrl, siteOrigins, csrfKey: deriveSubKey(masterKey, 'siteline account pages csrf v1') });
  return { db, clock, logger, oauth, sessions, apiKeys, limits };
}
