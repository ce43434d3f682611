// Sharing a project: an admin invites an email with a role (a pending invitation the other account accepts, or a
// link that creates the account), withdraws invitations, changes roles and removes access; the invitee accepts or
// declines. The operator (CLI) grants directly. A project always keeps at least one admin.
import type { Kysely } from 'kysely';
import type { ProjectRole } from '../domain/access-policy.ts';
import { AppError, invalidParameter, notFound } from '../errors/app-error.ts';
import { findAccountById, normalizeEmail } from '../store/accounts-repository.ts';
import { claimInviteByDigest, createInvite, deleteInvite, deleteOpenProjectInvites, findOpenInviteByDigest, parseInviteEmail, type InviteRecord } from '../store/invites-repository.ts';
import { changeProjectRole, countProjectAdmins, listProjectMembers, putProjectRole, roleOnProject } from '../store/project-roles-repository.ts';
import { revokeProjectAccess } from '../store/projects-repository.ts';
import type { Database } from '../store/schema.ts';
import type { Actor } from './actor.ts';
import { audited } from './audited.ts';
import { authorize, type ProjectRef } from './authorize.ts';
import type { WriteDeps } from './write-deps.ts';

export type ShareOutcome = { kind: 'invited'; token: string; invite: InviteRecord } | { kind: 'member'; email: string; role: ProjectRole };

/**
 * Invites an email to the project with a role. The answer is the same whether or not the email has an account (a
 * link to send, which works either way); only a current member, whom the admin sees in the list anyway, is named.
 */
export async function inviteToProject(deps: WriteDeps, actor: Actor, project: ProjectRef, input: { email: string; role: ProjectRole }): Promise<ShareOutcome> {
  if (actor.kind !== 'account') throw invalidParameter('actor', 'Invitations are sent by an account; the CLI grants directly (siteline projects grant).');
  const email = parseInviteEmail(input.email);
  return audited<ShareOutcome>(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'access.invite');
    const member = (await listProjectMembers(trx, project.id)).find((m) => normalizeEmail(m.email) === normalizeEmail(email));
    if (member) return { result: { kind: 'member', email: member.email, role: member.role }, audit: null };
    await deleteOpenProjectInvites(trx, project.id, email);
    const { token, invite } = await createInvite(trx, { email, createdBy: actor.accountId, now: deps.clock(), project: { id: project.id, role: input.role } });
    return { result: { kind: 'invited', token, invite }, audit: { action: 'access.invite', subject: email, projectId: project.id, detail: { role: input.role } } };
  });
}

export async function withdrawInvitation(deps: WriteDeps, actor: Actor, project: ProjectRef, digest: string): Promise<void> {
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'access.withdraw');
    const invite = await findOpenInviteByDigest(trx, digest, deps.clock());
    if (!invite || invite.projectId !== project.id || !(await deleteInvite(trx, digest, project.id))) throw notFound('That invitation is no longer open.');
    return { result: undefined, audit: { action: 'access.withdraw', subject: invite.email, projectId: project.id } };
  });
}

/** Refuses a change that would leave the project without an admin (the operator may, to repair a project). */
async function keepAnAdmin(db: Kysely<Database>, actor: Actor, projectId: string, accountId: string): Promise<void> {
  if (actor.kind === 'operator' || (await roleOnProject(db, accountId, projectId)) !== 'admin') return;
  if ((await countProjectAdmins(db, projectId)) <= 1) throw invalidParameter('role', 'A project needs at least one admin: make someone else admin first.');
}

export async function setMemberRole(deps: WriteDeps, actor: Actor, project: ProjectRef, accountId: string, role: ProjectRole): Promise<void> {
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'access.set_role');
    const previous = await roleOnProject(trx, accountId, project.id);
    if (!previous) throw notFound('That account has no access to this project.');
    if (previous === role) return { result: undefined, audit: null };
    if (role !== 'admin') await keepAnAdmin(trx, actor, project.id, accountId);
    await changeProjectRole(trx, accountId, project.id, role);
    return { result: undefined, audit: { action: 'access.set_role', subject: accountId, projectId: project.id, detail: { role, previous } } };
  });
}

export async function removeAccess(deps: WriteDeps, actor: Actor, project: ProjectRef, accountId: string): Promise<void> {
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'access.remove');
    if (actor.kind === 'account' && actor.accountId === accountId) throw invalidParameter('account_id', 'You cannot remove your own access; ask another admin to.');
    await keepAnAdmin(trx, actor, project.id, accountId);
    if (!(await revokeProjectAccess(trx, accountId, project.id))) throw notFound('That account had no access.');
    return { result: undefined, audit: { action: 'access.remove', subject: accountId, projectId: project.id } };
  });
}

/** The operator's direct grant (`siteline projects grant`): no invitation, any role. */
export async function grantAccess(deps: WriteDeps, actor: Actor, project: ProjectRef, accountId: string, role: ProjectRole): Promise<void> {
  if (actor.kind !== 'operator') throw new AppError('insufficient_role', 'Accounts share projects by invitation; only the CLI grants directly.');
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'access.set_role');
    await putProjectRole(trx, accountId, project.id, role, deps.clock());
    return { result: undefined, audit: { action: 'access.grant', subject: accountId, projectId: project.id, detail: { role } } };
  });
}

/** The open project invitation `digest` names, addressed to the account (else 404: nobody else's business). */
async function inviteFor(db: Kysely<Database>, accountId: string, digest: string, now: Date): Promise<InviteRecord & { projectId: string; role: ProjectRole }> {
  const [invite, account] = await Promise.all([findOpenInviteByDigest(db, digest, now), findAccountById(db, accountId)]);
  if (!invite?.projectId || !invite.role || !account || normalizeEmail(invite.email) !== normalizeEmail(account.email)) throw notFound('That invitation is no longer open.');
  return invite as InviteRecord & { projectId: string; role: ProjectRole };
}

/** The invitee accepts: the project joins their list with the invited role. Returns the project id. */
export async function acceptInvitation(deps: WriteDeps, actor: Actor, digest: string): Promise<string> {
  if (actor.kind !== 'account') throw notFound('That invitation is no longer open.');
  return audited(deps, actor, async (trx) => {
    const now = deps.clock();
    const invite = await inviteFor(trx, actor.accountId, digest, now);
    if (!(await claimInviteByDigest(trx, digest, now))) throw notFound('That invitation is no longer open.');
    await putProjectRole(trx, actor.accountId, invite.projectId, invite.role, now);
    return { result: invite.projectId, audit: { action: 'access.accept', subject: invite.email, projectId: invite.projectId, detail: { role: invite.role, invitedBy: invite.createdBy } } };
  });
}

export async function declineInvitation(deps: WriteDeps, actor: Actor, digest: string): Promise<void> {
  if (actor.kind !== 'account') throw notFound('That invitation is no longer open.');
  await audited(deps, actor, async (trx) => {
    const invite = await inviteFor(trx, actor.accountId, digest, deps.clock());
    await deleteInvite(trx, digest);
    return { result: undefined, audit: { action: 'access.decline', subject: invite.email, projectId: invite.projectId } };
  });
}
