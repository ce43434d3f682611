// API keys and connected apps: an account makes, rotates and revokes its own keys (the operator, anyone's). A key
// restricted to projects may name only projects its account holds a role on; an unknown key and someone else's
// project get the same answer. Keys act with their account's current role (checked on every write and read), so
// a key made by a viewer reads and nothing more. The key service writes a key and its audit entry together.
import type { ApiKeyService, CreateApiKeyOptions, IssuedApiKey, ApiKeyView } from '../auth/api-keys.ts';
import { invalidParameter, notFound } from '../errors/app-error.ts';
import { findGrant, revokeGrant } from '../store/oauth-grants-repository.ts';
import { listProjectsForAccount } from '../store/projects-repository.ts';
import type { Actor } from './actor.ts';
import { audited } from './audited.ts';
import type { WriteDeps } from './write-deps.ts';

export type KeyDeps = WriteDeps & { apiKeys: Pick<ApiKeyService, 'create' | 'revoke' | 'rotate'> };

/** An account acts on its own keys only; the operator on anyone's. */
function assertOwnKeys(actor: Actor, accountId: string): void {
  if (actor.kind === 'account' && actor.accountId !== accountId) throw notFound('No such API key on this account.');
}

export async function createKey(deps: KeyDeps, actor: Actor, accountId: string, options: Omit<CreateApiKeyOptions, 'via'>): Promise<IssuedApiKey> {
  assertOwnKeys(actor, accountId);
  if (actor.kind === 'account' && options.projectKeys) {
    const readable = new Set((await listProjectsForAccount(deps.db, accountId)).map((p) => p.key));
    const unknown = options.projectKeys.filter((key) => !readable.has(key.trim()));
    if (unknown.length > 0) throw invalidParameter('projects', `Unknown project ${unknown.map((k) => `'${k}'`).join(', ')}.`);
  }
  return deps.apiKeys.create(accountId, { ...options, via: actor.via });
}

export async function revokeKey(deps: KeyDeps, actor: Actor, accountId: string, keyIdOrPrefix: string): Promise<ApiKeyView> {
  assertOwnKeys(actor, accountId);
  return deps.apiKeys.revoke(accountId, keyIdOrPrefix, { via: actor.via });
}

export async function rotateKey(deps: KeyDeps, actor: Actor, accountId: string, keyIdOrPrefix: string, options: { graceMs?: number } = {}): Promise<IssuedApiKey & { previous: ApiKeyView }> {
  assertOwnKeys(actor, accountId);
  return deps.apiKeys.rotate(accountId, keyIdOrPrefix, { ...options, via: actor.via });
}

/** Disconnects an app (an OAuth grant) of the account: its tokens stop working at their next use. */
export async function revokeApp(deps: WriteDeps, actor: Actor, accountId: string, grantId: string): Promise<void> {
  assertOwnKeys(actor, accountId);
  await audited(deps, actor, async (trx) => {
    const grant = await findGrant(trx, grantId);
    if (!grant || grant.accountId !== accountId || !(await revokeGrant(trx, grant.id, deps.clock(), 'revoked by user'))) throw notFound('That app is not connected to this account.');
    return { result: undefined, audit: { action: 'oauth_grant.revoke', subject: grant.id, detail: { client: grant.clientId } } };
  });
}
