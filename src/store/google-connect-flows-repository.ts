// "Connect Google" flows in progress. A flow is bound to the browser session that started it and to a random
// `state` (stored as a digest); it holds the PKCE verifier and, once Google answered, the token set, both sealed
// with AAD naming the flow. Nothing reaches data_sources until the user picks a property and a site, so an
// abandoned flow leaves nothing half-saved; flows expire after an hour.
import type { Kysely } from 'kysely';
import { newSecret, sha256Hex } from '../auth/oauth/secrets.ts';
import type { Database } from './schema.ts';
import type { SecretBox } from './secret-box.ts';

export const FLOW_TTL_SEC = 3600;

export interface ConnectFlow {
  id: string;
  accountId: string;
  projectId: string;
  sessionDigest: string;
  verifier: string;
  /** The token set Google returned (JSON), after consent. */
  tokens: string | null;
  /** The Google account (`sub`) whose tokens the flow holds, when Google said who consented. */
  subject: string | null;
}

const aad = (id: string, part: string) => `siteline:google_connect_flow:${id}:${part}`;

export async function startFlow(
  db: Kysely<Database>,
  box: SecretBox,
  input: { state: string; accountId: string; projectId: string; sessionDigest: string; verifier: string; now: Date },
): Promise<string> {
  const id = newSecret().slice(0, 22);
  // Expired flows that hold tokens are left to takeAbandonedFlows, which hands them over for revoking at Google.
  await db.deleteFrom('google_connect_flows').where('expires_at', '<=', input.now.toISOString()).where('token_ciphertext', 'is', null).execute();
  await db
    .insertInto('google_connect_flows')
    .values({
      id,
      state_digest: sha256Hex(input.state),
      session_digest: input.sessionDigest,
      account_id: input.accountId,
      project_id: input.projectId,
      verifier_ciphertext: box.seal(input.verifier, aad(id, 'verifier')),
      token_ciphertext: null,
      created_at: input.now.toISOString(),
      expires_at: new Date(input.now.getTime() + FLOW_TTL_SEC * 1000).toISOString(),
    })
    .execute();
  return id;
}

type FlowRow = { id: string; account_id: string; project_id: string; session_digest: string; verifier_ciphertext: string; token_ciphertext: string | null; google_subject: string | null };

function toFlow(box: SecretBox, row: FlowRow): ConnectFlow {
  return {
    id: row.id,
    accountId: row.account_id,
    projectId: row.project_id,
    sessionDigest: row.session_digest,
    verifier: box.open(row.verifier_ciphertext, aad(row.id, 'verifier')),
    tokens: row.token_ciphertext === null ? null : box.open(row.token_ciphertext, aad(row.id, 'tokens')),
    subject: row.google_subject,
  };
}

/** The live flow a callback's `state` names (any session: the caller compares the session). */
export async function findFlowByState(db: Kysely<Database>, box: SecretBox, state: string, now: Date): Promise<ConnectFlow | undefined> {
  if (!state || state.length > 200) return undefined;
  const row = await db.selectFrom('google_connect_flows').selectAll().where('state_digest', '=', sha256Hex(state)).where('expires_at', '>', now.toISOString()).executeTakeFirst();
  return row && toFlow(box, row);
}

export async function findFlow(db: Kysely<Database>, box: SecretBox, id: string, now: Date): Promise<ConnectFlow | undefined> {
  const row = await db.selectFrom('google_connect_flows').selectAll().where('id', '=', id).where('expires_at', '>', now.toISOString()).executeTakeFirst();
  return row && toFlow(box, row);
}

export async function saveFlowTokens(db: Kysely<Database>, box: SecretBox, id: string, tokens: string, subject: string | null): Promise<void> {
  await db.updateTable('google_connect_flows').set({ token_ciphertext: box.seal(tokens, aad(id, 'tokens')), google_subject: subject }).where('id', '=', id).execute();
}

/** Ends the flow for its user now; its tokens are left to the sweep, which decides whether to revoke them. */
export async function expireFlow(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  await db.updateTable('google_connect_flows').set({ expires_at: now.toISOString() }).where('id', '=', id).execute();
}

export async function deleteFlow(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('google_connect_flows').where('id', '=', id).execute();
}

/**
 * Removes expired flows that still hold Google's tokens (abandoned on the picker) and returns them, so the caller
 * revokes each grant at Google. A row is returned only to the instance whose delete removed it.
 */
export async function takeAbandonedFlows(db: Kysely<Database>, box: SecretBox, now: Date, limit = 50): Promise<ConnectFlow[]> {
  const rows = await db.selectFrom('google_connect_flows').selectAll().where('expires_at', '<=', now.toISOString()).where('token_ciphertext', 'is not', null).limit(limit).execute();
  const taken: ConnectFlow[] = [];
  for (const row of rows) {
    const deleted = await db.deleteFrom('google_connect_flows').where('id', '=', row.id).executeTakeFirst();
    if (deleted.numDeletedRows > 0n) taken.push(toFlow(box, row));
  }
  return taken;
}

/** The flows in progress on a project (before it is deleted, so their tokens are revoked). */
export async function flowsOfProject(db: Kysely<Database>, box: SecretBox, projectId: string): Promise<ConnectFlow[]> {
  const rows = await db.selectFrom('google_connect_flows').selectAll().where('project_id', '=', projectId).execute();
  return rows.map((row) => toFlow(box, row));
}
