// Accounts and the team: first-run setup (the owner, with a setup code from the server log), open sign-up, joining
// by an invitation link (to the installation, or to a project with a role), the owner's invitations, and the
// operator's accounts (`siteline accounts create [--owner]`, `set-password`). Each writes its audit entry with it.
import { AppError, invalidParameter, notFound } from '../errors/app-error.ts';
import { claimOwnership, countAccounts } from '../store/account-roles-repository.ts';
import { createAccount, findAccountByEmail, setAccountPassword, type AccountRecord, type NewAccount } from '../store/accounts-repository.ts';
import { claimInvite, createInvite, deleteInvite, findOpenInvite, findOpenInviteByDigest, type InviteRecord } from '../store/invites-repository.ts';
import { putProjectRole } from '../store/project-roles-repository.ts';
import { clearSetupCodes, setupCodeMatches } from '../store/setup-codes-repository.ts';
import { accountActor, type Actor } from './actor.ts';
import { audited, record } from './audited.ts';
import { authorizeInstallation } from './authorize.ts';
import type { WriteDeps } from './write-deps.ts';

export type AccountInput = Omit<NewAccount, 'now'>;

/** Thrown when the installation already has its owner (a second setup form, or one that lost a race). */
export class AlreadySetUp extends Error {
  constructor() {
    super('An owner account already exists.');
    this.name = 'AlreadySetUp';
  }
}

/** Creates the owner when none exists and the setup code is one the server printed. */
export async function setUpOwner(deps: WriteDeps, input: AccountInput & { code: string }): Promise<AccountRecord> {
  return deps.db.transaction().execute(async (trx) => {
    if ((await countAccounts(trx)) > 0) throw new AlreadySetUp();
    if (!(await setupCodeMatches(trx, input.code))) throw invalidParameter('code', 'That is not the setup code this server printed in its log. Copy it again from the log (it is printed at every start until the owner exists).');
    const account = await createAccount(trx, { ...input, now: deps.clock() });
    // Of two forms sent at once, one claims ownership; the other's account is rolled back with its transaction.
    if (!(await claimOwnership(trx, account.id))) throw new AlreadySetUp();
    await clearSetupCodes(trx);
    await record(trx, deps, accountActor(account.id, 'setup'), { action: 'account.create', subject: account.id, detail: { owner: true } });
    return account;
  });
}

/** Open sign-up (SIGNUP=open): a member account. */
export async function signUp(deps: WriteDeps, input: AccountInput): Promise<AccountRecord> {
  return deps.db.transaction().execute(async (trx) => {
    const account = await createAccount(trx, { ...input, now: deps.clock() });
    await record(trx, deps, accountActor(account.id, 'signup'), { action: 'account.create', subject: account.id });
    return account;
  });
}

/**
 * Redeems an invitation link by creating its account (the email is the invitation's); an invitation to a project
 * also gives the role there. The link is claimed in the same transaction, so a refused password does not burn it.
 */
export async function joinByInvite(deps: WriteDeps, token: string, input: Omit<AccountInput, 'email'>): Promise<AccountRecord> {
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock();
    const invite = await findOpenInvite(trx, token, now);
    if (!invite || !(await claimInvite(trx, token, now))) throw invalidParameter('token', 'This invitation link was used a moment ago or has expired; ask for a new one.');
    const account = await createAccount(trx, { ...input, email: invite.email, now });
    const actor = accountActor(account.id, 'signup');
    await record(trx, deps, actor, { action: 'account.create', subject: account.id, detail: { invitedBy: invite.createdBy } });
    if (invite.projectId && invite.role) {
      await putProjectRole(trx, account.id, invite.projectId, invite.role, now);
      await record(trx, deps, actor, { action: 'access.accept', subject: invite.email, projectId: invite.projectId, detail: { role: invite.role, invitedBy: invite.createdBy } });
    }
    return account;
  });
}

export type TeamInviteOutcome = { kind: 'invited'; token: string; invite: InviteRecord } | { kind: 'exists'; account: AccountRecord };

/**
 * The owner invites a teammate to the installation. An email that already has an account gets no link: the owner
 * (who sees every account) is told to give it access to projects instead.
 */
export async function inviteTeammate(deps: WriteDeps, actor: Actor, email: string): Promise<TeamInviteOutcome> {
  return audited<TeamInviteOutcome>(deps, actor, async (trx) => {
    await authorizeInstallation(trx, actor, 'team.invite');
    const existing = await findAccountByEmail(trx, email);
    if (existing) return { result: { kind: 'exists', account: existing }, audit: null };
    if (actor.kind !== 'account') throw invalidParameter('actor', 'Invitations are made by the owner in the dashboard.');
    const { token, invite } = await createInvite(trx, { email, createdBy: actor.accountId, now: deps.clock() });
    return { result: { kind: 'invited', token, invite }, audit: { action: 'team.invite', subject: invite.email } };
  });
}

export async function withdrawTeamInvite(deps: WriteDeps, actor: Actor, digest: string): Promise<void> {
  await audited(deps, actor, async (trx) => {
    await authorizeInstallation(trx, actor, 'team.withdraw');
    const invite = await findOpenInviteByDigest(trx, digest, deps.clock());
    if (!invite || invite.projectId !== null || !(await deleteInvite(trx, digest))) throw notFound('That invitation is no longer open.');
    return { result: undefined, audit: { action: 'team.withdraw', subject: invite.email } };
  });
}

/** `siteline accounts create [--owner]`: the other way to the first owner (and the only one with SIGNUP=closed). */
export async function createAccountAsOperator(deps: WriteDeps, actor: Actor, input: AccountInput & { owner?: boolean }): Promise<AccountRecord> {
  return audited(deps, actor, async (trx) => {
    await authorizeInstallation(trx, actor, 'account.create');
    const { owner, ...account } = input;
    const created = await createAccount(trx, { ...account, now: deps.clock() });
    if (owner && !(await claimOwnership(trx, created.id))) throw new AppError('invalid_parameter', 'This installation already has an owner; create the account without --owner.', { param: 'owner' });
    if (owner) await clearSetupCodes(trx);
    return { result: created, audit: { action: 'account.create', subject: created.id, detail: owner ? { owner: true } : {} } };
  });
}

export async function setPassword(deps: WriteDeps, actor: Actor, accountId: string, password: string): Promise<void> {
  await audited(deps, actor, async (trx) => {
    await authorizeInstallation(trx, actor, 'account.set_password');
    await setAccountPassword(trx, accountId, password);
    return { result: undefined, audit: { action: 'account.set_password', subject: accountId } };
  });
}
