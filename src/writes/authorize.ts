// Asks the policy table (src/domain/access-policy.ts) whether an actor may act, from the actor's role as the database
// holds it now, so keys, OAuth tokens and sessions always act with their account's current role. An account with no
// role on a project is told the project does not exist (the same answer as for an unknown key), so nothing leaks.
import type { Kysely } from 'kysely';
import { roleRefusal } from '../domain/access-refusal.ts';
import {
  allows,
  installationAllows,
  standingOf,
  type InstallationAction,
  type InstallationStanding,
  type ProjectAction,
  type Standing,
} from '../domain/access-policy.ts';
import { AppError, notFound } from '../errors/app-error.ts';
import { roleOf } from '../store/account-roles-repository.ts';
import { roleOnProject } from '../store/project-roles-repository.ts';
import type { Database } from '../store/schema.ts';
import type { Actor } from './actor.ts';

export interface ProjectRef {
  id: string;
  key: string;
}

export async function standingOn(db: Kysely<Database>, actor: Actor, projectId: string): Promise<Standing> {
  if (actor.kind === 'operator') return 'operator';
  const role = await roleOnProject(db, actor.accountId, projectId);
  return standingOf(role, role === undefined && (await roleOf(db, actor.accountId)) === 'owner');
}

export async function installationStanding(db: Kysely<Database>, actor: Actor): Promise<InstallationStanding> {
  if (actor.kind === 'operator') return 'operator';
  return (await roleOf(db, actor.accountId)) === 'owner' ? 'owner' : 'member';
}

/** Recovery asks only whether the account owns the installation: an owner demoted on the project recovers it too. */
async function recoveryStanding(db: Kysely<Database>, actor: Actor, projectId: string): Promise<Standing> {
  return actor.kind === 'account' && (await roleOf(db, actor.accountId)) === 'owner' ? 'owner' : standingOn(db, actor, projectId);
}

/** The standing when the action is allowed; otherwise 404 (no role: nothing to see) or 403 (a role that does not allow it). */
export async function authorize(db: Kysely<Database>, actor: Actor, project: ProjectRef, action: ProjectAction): Promise<Standing> {
  const standing = action === 'project.recover' ? await recoveryStanding(db, actor, project.id) : await standingOn(db, actor, project.id);
  if (allows(action, standing)) return standing;
  if (standing === 'none' || standing === 'owner') throw notFound(`No project '${project.key}' is visible to you.`);
  throw roleRefusal(action, standing, project.key);
}

export async function authorizeInstallation(db: Kysely<Database>, actor: Actor, action: InstallationAction): Promise<InstallationStanding> {
  const standing = await installationStanding(db, actor);
  if (installationAllows(action, standing)) return standing;
  throw new AppError('insufficient_role', `Only the owner of this Siteline may ${describeInstallationAction(action)}.`);
}

function describeInstallationAction(action: InstallationAction): string {
  return { 'project.create': 'create projects', 'team.invite': 'invite teammates', 'team.withdraw': 'withdraw invitations', 'team.view_all': 'see every account', 'account.create': 'create accounts', 'account.set_password': 'set passwords' }[action];
}
