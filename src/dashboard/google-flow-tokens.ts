// The end of a "Connect Google" flow that did not finish (answered twice, abandoned past its hour, cancelled on the
// picker, its project deleted, or its starter no longer an admin of the project). Revoking its refresh token at
// Google would revoke the whole grant of that Google account — every project connected through it — so the token is
// revoked only when no data source and no other flow uses that account (domain/google-grant-release.ts). Cancel
// itself never revokes: it only ends the flow, and the sweep decides later.
import type { Kysely } from 'kysely';
import { allows } from '../domain/access-policy.ts';
import { mayRevokeUnfinishedFlow } from '../domain/google-grant-release.ts';
import { grantHolders } from '../store/google-grants-repository.ts';
import type { GoogleTokens, GoogleWebFlow } from '../providers/google-web/google-web-flow.ts';
import { deleteFlow, flowsOfProject, takeAbandonedFlows, type ConnectFlow } from '../store/google-connect-flows-repository.ts';
import { roleOnProject } from '../store/project-roles-repository.ts';
import type { Database } from '../store/schema.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { DashboardDeps } from './dashboard-deps.ts';

/** How often abandoned flows are looked for (they live an hour). */
const SWEEP_EVERY_MS = 10 * 60_000;

/** Google as the flows' end needs it: the client (whose grants are counted) and revocation. */
export type Revoker = { flow: Pick<GoogleWebFlow, 'revoke'>; clientId: string } | undefined;

/**
 * Revokes the (already deleted) flow's refresh token at Google when nothing else uses that Google account's grant;
 * failures are left (an unused token expires after six months). True when it was revoked.
 */
export async function revokeFlowTokens(db: Kysely<Database>, google: Revoker, flow: Pick<ConnectFlow, 'id' | 'tokens' | 'subject'>, now: Date): Promise<boolean> {
  if (!flow.tokens || !google) return false;
  const { refreshToken } = JSON.parse(flow.tokens) as GoogleTokens;
  if (!refreshToken) return false;
  const { holders } = flow.subject === null ? { holders: { dataSources: 0, otherFlows: 0 } } : await grantHolders(db, google.clientId, flow.subject, now, flow.id);
  if (!mayRevokeUnfinishedFlow(flow.subject, holders)) return false;
  return google.flow.revoke(refreshToken).then(() => true, () => false);
}

/** Ends the flow: its row deleted, its tokens revoked when nothing else uses that grant. */
export async function dropFlow(db: Kysely<Database>, google: Revoker, flow: ConnectFlow, now: Date): Promise<void> {
  await deleteFlow(db, flow.id);
  await revokeFlowTokens(db, google, flow, now);
}

/** A flow may go on only while the account that started it may still connect sources to the project. */
export async function starterMayConnect(db: Kysely<Database>, flow: Pick<ConnectFlow, 'accountId' | 'projectId'>): Promise<boolean> {
  const role = await roleOnProject(db, flow.accountId, flow.projectId);
  return role !== undefined && allows('source.connect', role);
}

/** Revokes the tokens of every flow on the project (called before the project is deleted). */
export async function dropFlowsOfProject(db: Kysely<Database>, box: SecretBox, google: Revoker, projectId: string, now = new Date()): Promise<void> {
  for (const flow of await flowsOfProject(db, box, projectId)) await dropFlow(db, google, flow, now);
}

export async function sweepAbandonedFlows(db: Kysely<Database>, box: SecretBox, google: Revoker, now: Date): Promise<number> {
  const taken = await takeAbandonedFlows(db, box, now);
  for (const flow of taken) await revokeFlowTokens(db, google, flow, now);
  return taken.length;
}

/** Sweeps now and then every few minutes while the server runs; the returned function stops it. */
export function startFlowSweeper(deps: DashboardDeps): () => void {
  const sweep = () =>
    void sweepAbandonedFlows(deps.web.db, deps.box, deps.google, deps.web.clock()).catch((error: unknown) => deps.web.logger.warn({ err: error }, 'sweeping abandoned Google connections failed'));
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
