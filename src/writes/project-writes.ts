// Projects: create (the creator becomes its admin), edit, brand terms, delete, and recovery by the installation
// owner. Each checks the policy, writes and audits in one transaction.
import { invalidParameter, isAppError } from '../errors/app-error.ts';
import { deleteProject as deleteProjectRows, updateProject as updateProjectRow, type ProjectChanges } from '../store/project-admin-repository.ts';
import { putProjectRole } from '../store/project-roles-repository.ts';
import { createProject as insertProject, updateProjectBrandTerms, type NewProject, type ProjectRecord } from '../store/projects-repository.ts';
import type { Actor } from './actor.ts';
import { audited } from './audited.ts';
import { authorize, authorizeInstallation, type ProjectRef } from './authorize.ts';
import type { WriteDeps } from './write-deps.ts';

/**
 * Keys are one namespace for the whole installation (they are in API URLs), so a taken key must be refused; the
 * refusal says only that the key is not available, not whose project has it.
 */
function unavailableKey(error: unknown, key: string): unknown {
  return isAppError(error) && error.param === 'key' && /already exists/.test(error.message)
    ? invalidParameter('key', `The key '${key}' is not available; choose another one.`)
    : error;
}

export async function createProject(deps: WriteDeps, actor: Actor, input: Omit<NewProject, 'now'>): Promise<ProjectRecord> {
  await authorizeInstallation(deps.db, actor, 'project.create');
  return audited(deps, actor, async (trx) => {
    const now = deps.clock();
    const project = await insertProject(trx, { ...input, now }).catch((error: unknown) => Promise.reject(unavailableKey(error, input.key.trim())));
    if (actor.kind === 'account') await putProjectRole(trx, actor.accountId, project.id, 'admin', now);
    return { result: { ...project, ...(actor.kind === 'account' ? { role: 'admin' as const } : {}) }, audit: { action: 'project.create', subject: project.key, projectId: project.id, detail: { name: project.name, domain: project.domain } } };
  });
}

export async function updateProject(deps: WriteDeps, actor: Actor, project: ProjectRecord, changes: ProjectChanges): Promise<ProjectRecord> {
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'project.edit');
    const updated = await updateProjectRow(trx, project, changes);
    const changed = (['name', 'domain', 'timezone', 'currency'] as const).filter((field) => updated[field] !== project[field]);
    return { result: updated, audit: { action: 'project.edit', subject: project.key, projectId: project.id, detail: { changed } } };
  });
}

/** New brand terms, or with null the default derived from the domain. */
export async function setBrandTerms(deps: WriteDeps, actor: Actor, project: ProjectRef, terms: readonly string[] | null): Promise<string[] | null> {
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'brand_terms.edit');
    const brandTerms = await updateProjectBrandTerms(trx, project.id, terms);
    return { result: brandTerms, audit: { action: 'project.brand_terms', subject: project.key, projectId: project.id, detail: { brandTerms } } };
  });
}

export async function deleteProject(deps: WriteDeps, actor: Actor, project: ProjectRef): Promise<void> {
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'project.delete');
    await deleteProjectRows(trx, project.id);
    return { result: undefined, audit: { action: 'project.delete', subject: project.key, projectId: project.id } };
  });
}

/** The installation owner (or the operator, for an account) takes the admin role on a project back. */
export async function recoverProject(deps: WriteDeps, actor: Actor, project: ProjectRef, accountId: string): Promise<void> {
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'project.recover');
    if (actor.kind === 'account' && actor.accountId !== accountId) throw invalidParameter('account', 'The owner recovers a project for themselves.');
    await putProjectRole(trx, accountId, project.id, 'admin', deps.clock());
    return { result: undefined, audit: { action: 'project.recover', subject: project.key, projectId: project.id, detail: { account: accountId } } };
  });
}
