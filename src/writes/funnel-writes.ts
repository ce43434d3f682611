// Funnels: create (from the dashboard, the CLI or MCP's confirmed create_funnel), edit (a new version), rename and
// delete. Editors and admins. A confirmation id makes MCP's creation idempotent: the same confirmation returns the
// funnel it created, without a second write or a second audit entry.
import { AppError, isAppError, notFound } from '../errors/app-error.ts';
import { editFunnel as storeEdit, renameFunnel as storeRename } from '../store/funnel-edits-repository.ts';
import {
  createFunnel as insertFunnel,
  deleteFunnel as deleteFunnelRow,
  findFunnelByConfirmationId,
  type FunnelRecord,
  type NewFunnel,
} from '../store/funnels-repository.ts';
import type { Actor } from './actor.ts';
import { audited } from './audited.ts';
import { authorize, type ProjectRef } from './authorize.ts';
import type { WriteDeps } from './write-deps.ts';

export type NewFunnelInput = Pick<NewFunnel, 'name' | 'steps' | 'key' | 'createdVia' | 'confirmationId'>;

/** The funnel, and whether an earlier call with the same confirmation had created it. */
export async function createFunnel(deps: WriteDeps, actor: Actor, project: ProjectRef, input: NewFunnelInput): Promise<{ funnel: FunnelRecord; replayed: boolean }> {
  const create = () =>
    audited(deps, actor, async (trx) => {
      await authorize(trx, actor, project, 'funnel.create');
      const replay = input.confirmationId ? await findFunnelByConfirmationId(trx, input.confirmationId) : undefined;
      if (replay) return { result: { funnel: replay, replayed: true }, audit: null };
      const now = deps.clock();
      const funnel = await insertFunnel(trx, { ...input, projectId: project.id, createdByAccountId: actor.kind === 'account' ? actor.accountId : null, now });
      // SQLite: a concurrent insert with this confirmation won, and the store handed back its funnel.
      if (funnel.createdAt !== now.toISOString()) return { result: { funnel, replayed: true }, audit: null };
      return { result: { funnel, replayed: false }, audit: { action: 'funnel.create', subject: funnel.key, projectId: project.id, detail: { name: funnel.name, steps: funnel.steps.length } } };
    });
  const created = await create().catch(async (error: unknown) => {
    // PostgreSQL: a concurrent insert with this confirmation won, and the unique violation ended this transaction;
    // the loser answers with the winner's funnel.
    const raced = input.confirmationId && !isAppError(error) ? await findFunnelByConfirmationId(deps.db, input.confirmationId) : undefined;
    if (raced) return { funnel: raced, replayed: true };
    throw error;
  });
  // A confirmation belongs to the account and project it was used for; anything else is not a replay.
  if (created.replayed && (created.funnel.projectId !== project.id || (actor.kind === 'account' && created.funnel.createdByAccountId !== actor.accountId))) {
    throw new AppError('invalid_parameter', 'This confirmation has already been used.', { param: 'confirmation_token' });
  }
  return created;
}

function ownFunnel(funnel: FunnelRecord | undefined, project: ProjectRef, key: string): FunnelRecord {
  if (!funnel || funnel.projectId !== project.id) throw notFound(`No funnel '${key}' in ${project.key}.`);
  return funnel;
}

/** New steps (and name): a new version. Returns the version. */
export async function editFunnel(deps: WriteDeps, actor: Actor, project: ProjectRef, funnel: FunnelRecord, input: Pick<NewFunnel, 'name' | 'steps'>): Promise<number> {
  ownFunnel(funnel, project, funnel.key);
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'funnel.edit');
    const version = await storeEdit(trx, funnel.id, { name: input.name, steps: input.steps, now: deps.clock() });
    return { result: version, audit: { action: 'funnel.edit', subject: funnel.key, projectId: project.id, detail: { version } } };
  });
}

export async function renameFunnel(deps: WriteDeps, actor: Actor, project: ProjectRef, funnel: FunnelRecord, name: string): Promise<void> {
  ownFunnel(funnel, project, funnel.key);
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'funnel.edit');
    await storeRename(trx, funnel.id, { name, now: deps.clock() });
    return { result: undefined, audit: { action: 'funnel.rename', subject: funnel.key, projectId: project.id, detail: { from: funnel.name, to: name.trim() } } };
  });
}

export async function deleteFunnel(deps: WriteDeps, actor: Actor, project: ProjectRef, funnel: FunnelRecord | undefined, key: string): Promise<void> {
  const found = ownFunnel(funnel, project, key);
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'funnel.delete');
    if (!(await deleteFunnelRow(trx, found.key))) throw notFound(`No funnel '${key}' in ${project.key}.`);
    return { result: undefined, audit: { action: 'funnel.delete', subject: found.key, projectId: project.id, detail: { name: found.name } } };
  });
}
