// Who may do what: the one table of actions × roles every surface checks (dashboard routes, GraphQL mutations,
// MCP write tools, the CLI, and the write service that performs every state change). Pure: it decides from a
// role, never from where the request came from. docs/account-security.md prints the same table.

/** A project role, held per project by an account (its row in account_projects). */
export const PROJECT_ROLES = ['viewer', 'editor', 'admin'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/**
 * Who acts, as the policy sees it: a project role, or one of the installation's own standings.
 * - `owner`: the installation owner acting on a project they hold no role on (they may only recover it).
 * - `operator`: whoever runs the `siteline` CLI on the server (it reads the database directly, so it may do all).
 * - `none`: no role on the project (and not the owner): nothing, not even reading.
 */
export type Standing = ProjectRole | 'owner' | 'operator' | 'none';
export const STANDINGS: readonly Standing[] = [...PROJECT_ROLES, 'owner', 'operator', 'none'];

export const PROJECT_ACTIONS = [
  'project.read',
  'report.refresh',
  'funnel.create',
  'funnel.edit',
  'funnel.delete',
  'brand_terms.edit',
  'subscription.manage',
  'project.edit',
  'project.delete',
  'source.connect',
  'source.disconnect',
  'access.invite',
  'access.withdraw',
  'access.set_role',
  'access.remove',
  'audit.read',
  'project.recover',
] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

const READ: readonly Standing[] = ['viewer', 'editor', 'admin', 'operator'];
const EDIT: readonly Standing[] = ['editor', 'admin', 'operator'];
const ADMIN: readonly Standing[] = ['admin', 'operator'];

/** The table. An action not allowed here is refused, whatever the surface. */
export const PROJECT_POLICY: Readonly<Record<ProjectAction, readonly Standing[]>> = {
  'project.read': READ,
  // force=1 spends the provider's quota for everyone on the project.
  'report.refresh': EDIT,
  'funnel.create': EDIT,
  'funnel.edit': EDIT,
  'funnel.delete': EDIT,
  'brand_terms.edit': EDIT,
  // Reports and alerts mail people and call webhooks on the project's behalf.
  'subscription.manage': EDIT,
  'project.edit': ADMIN,
  'project.delete': ADMIN,
  'source.connect': ADMIN,
  'source.disconnect': ADMIN,
  'access.invite': ADMIN,
  'access.withdraw': ADMIN,
  'access.set_role': ADMIN,
  'access.remove': ADMIN,
  'audit.read': ADMIN,
  // The installation owner takes the admin role back on a project (everyone else already has theirs, or none).
  'project.recover': ['owner', 'operator'],
};

/** Actions on the installation rather than on one project. */
export const INSTALLATION_ACTIONS = ['project.create', 'team.invite', 'team.withdraw', 'team.view_all', 'account.create', 'account.set_password'] as const;
export type InstallationAction = (typeof INSTALLATION_ACTIONS)[number];

/** An account's standing on the installation: its owner, any other account, or the CLI's operator. */
export type InstallationStanding = 'owner' | 'member' | 'operator';
export const INSTALLATION_STANDINGS: readonly InstallationStanding[] = ['owner', 'member', 'operator'];

export const INSTALLATION_POLICY: Readonly<Record<InstallationAction, readonly InstallationStanding[]>> = {
  // Anyone with an account may start a project of their own (and is its admin).
  'project.create': ['owner', 'member', 'operator'],
  'team.invite': ['owner', 'operator'],
  'team.withdraw': ['owner', 'operator'],
  // Private teams: the owner sees every account; others only the people they share a project with.
  'team.view_all': ['owner', 'operator'],
  'account.create': ['operator'],
  'account.set_password': ['operator'],
};

export function allows(action: ProjectAction, standing: Standing): boolean {
  return PROJECT_POLICY[action].includes(standing);
}

/**
 * Whether a caller reads a project through an API: its account's role there allows `project.read`, and the
 * credential (API key or OAuth grant) is not restricted to other projects (`projectKeys` null = unrestricted).
 * Callers answer 404 either way, so an unknown and a forbidden project look the same.
 */
export function mayReadProject(credential: { projectKeys: ReadonlySet<string> | null }, project: { key: string; role?: ProjectRole | null }): boolean {
  if (credential.projectKeys !== null && !credential.projectKeys.has(project.key)) return false;
  return allows('project.read', standingOf(project.role, false));
}

export function installationAllows(action: InstallationAction, standing: InstallationStanding): boolean {
  return INSTALLATION_POLICY[action].includes(standing);
}

/** The standing of an account on a project from its role there (if any) and whether it owns the installation. */
export function standingOf(role: ProjectRole | null | undefined, installationOwner: boolean): Standing {
  if (role) return role;
  return installationOwner ? 'owner' : 'none';
}

export function isProjectRole(value: unknown): value is ProjectRole {
  return typeof value === 'string' && (PROJECT_ROLES as readonly string[]).includes(value);
}

/** How each role is described to people (role pickers, the members list, invitations). */
export const ROLE_DESCRIPTIONS: Readonly<Record<ProjectRole, string>> = {
  viewer: 'reads the numbers and makes their own API keys',
  editor: 'also edits funnels and brand terms and refreshes data',
  admin: 'also connects data sources, shares, changes roles and deletes',
};
