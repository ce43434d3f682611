// The end of a "Connect Google" flow that did not finish: whenever a flow that holds Google's tokens is dropped
// (cancelled, answered twice, abandoned past its hour, its project deleted, or its starter no longer an admin of
// the project) the refresh token is revoked at Google, so no grant outlives the flow that asked for it.
import type { Kysely } from 'kysely';
import { allows } from '../domain/access-policy.ts';
import type { GoogleTokens, GoogleWebFlow } from '../providers/google-web/google-web-flow.ts';
import { deleteFlow, flowsOfProject, takeAbandonedFlows, type ConnectFlow } from '../store/google-connect-flows-repository.ts';
import { roleOnProject } from '../store/project-roles-repository.ts';
import type { Database } from '../store/schema.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { DashboardDeps } from './dashboard-deps.ts';

/** How often abandoned flows are looked for (they live an hour). */
const SWEEP_EVERY_MS = 10 * 60_000;

type Revoker = Pick<GoogleWebFlow, 'revoke'> | undefined;

/** Revokes the flow's refresh token at Google, if it holds one; failures are left (the token dies with disuse). */
export async function revokeFlowTokens(google: Revoker, flow: Pick<ConnectFlow, 'tokens'>): Promise<void> {
  if (!flow.tokens || !google) return;
  const { refreshToken } = JSON.parse(flow.tokens) as GoogleTokens;
  if (refreshToken) await google.revoke(refreshToken).catch(() => undefined);
}

/** Ends the flow: its tokens revoked, its row deleted. */
export async function dropFlow(db: Kysely<Database>, google: Revoker, flow: ConnectFlow): Promise<void> {
  await deleteFlow(db, flow.id);
  await revokeFlowTokens(google, flow);
}

/** A flow may go on only while the account that started it may still connect sources to the project. */
export async function starterMayConnect(db: Kysely<Database>, flow: Pick<ConnectFlow, 'accountId' | 'projectId'>): Promise<boolean> {
  const role = await roleOnProject(db, flow.accountId, flow.projectId);
  return role !== undefined && allows('source.connect', role);
}

/** Revokes the tokens of every flow on the project (called before the project is deleted). */
export async function dropFlowsOfProject(db: Kysely<Database>, box: SecretBox, google: Revoker, projectId: string): Promise<void> {
  for (const flow of await flowsOfProject(db, box, projectId)) await dropFlow(db, google, flow);
}

export async function sweepAbandonedFlows(db: Kysely<Database>, box: SecretBox, google: Revoker, now: Date): Promise<number> {
  const taken = await takeAbandonedFlows(db, box, now);
  await Promise.all(taken.map((flow) => revokeFlowTokens(google, flow)));
  return taken.length;
}

/** Sweeps now and then every few minutes while the server runs; the returned function stops it. */
export function startFlowSweeper(deps: DashboardDeps): () => void {
  const sweep = () =>
    void sweepAbandonedFlows(deps.web.db, deps.box, deps.google?.flow, deps.web.clock()).catch((error: unknown) => deps.web.logger.warn({ err: error }, 'sweeping abandoned Google connections failed'));
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
