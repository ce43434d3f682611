// The role policy, exhaustively: every action against every standing, compared with the table as it is documented
// (docs/account-security.md). A change to who may do what changes this table and the docs together.
import { describe, expect, it } from 'vitest';
import {
  allows,
  INSTALLATION_ACTIONS,
  INSTALLATION_STANDINGS,
  installationAllows,
  mayReadProject,
  PROJECT_ACTIONS,
  STANDINGS,
  standingOf,
  type InstallationAction,
  type InstallationStanding,
  type ProjectAction,
  type Standing,
} from '../../src/domain/access-policy.ts';
import { roleRefusal } from '../../src/domain/access-refusal.ts';

// viewer, editor, admin, owner (installation owner without a role on the project), operator (CLI), none
const Y = true;
const n = false;
const PROJECT_TABLE: Record<ProjectAction, [boolean, boolean, boolean, boolean, boolean, boolean]> = {
  'project.read': [Y, Y, Y, n, Y, n],
  'report.refresh': [n, Y, Y, n, Y, n],
  'funnel.create': [n, Y, Y, n, Y, n],
  'funnel.edit': [n, Y, Y, n, Y, n],
  'funnel.delete': [n, Y, Y, n, Y, n],
  'brand_terms.edit': [n, Y, Y, n, Y, n],
  'subscription.manage': [n, Y, Y, n, Y, n],
  'project.edit': [n, n, Y, n, Y, n],
  'project.delete': [n, n, Y, n, Y, n],
  'source.connect': [n, n, Y, n, Y, n],
  'source.disconnect': [n, n, Y, n, Y, n],
  'access.invite': [n, n, Y, n, Y, n],
  'access.withdraw': [n, n, Y, n, Y, n],
  'access.set_role': [n, n, Y, n, Y, n],
  'access.remove': [n, n, Y, n, Y, n],
  'audit.read': [n, n, Y, n, Y, n],
  'project.recover': [n, n, n, Y, Y, n],
};
const PROJECT_COLUMNS: Standing[] = ['viewer', 'editor', 'admin', 'owner', 'operator', 'none'];

// owner, member, operator
const INSTALLATION_TABLE: Record<InstallationAction, [boolean, boolean, boolean]> = {
  'project.create': [Y, Y, Y],
  'team.invite': [Y, n, Y],
  'team.withdraw': [Y, n, Y],
  'team.view_all': [Y, n, Y],
  'account.create': [n, n, Y],
  'account.set_password': [n, n, Y],
};
const INSTALLATION_COLUMNS: InstallationStanding[] = ['owner', 'member', 'operator'];

describe('the project policy', () => {
  it('covers every action and every standing', () => {
    expect(Object.keys(PROJECT_TABLE).sort()).toEqual([...PROJECT_ACTIONS].sort());
    expect([...PROJECT_COLUMNS].sort()).toEqual([...STANDINGS].sort());
  });

  for (const action of PROJECT_ACTIONS) {
    it(`${action}: ${PROJECT_COLUMNS.filter((_, i) => PROJECT_TABLE[action][i]).join(', ')}`, () => {
      PROJECT_COLUMNS.forEach((standing, i) => expect(allows(action, standing), `${action} × ${standing}`).toBe(PROJECT_TABLE[action][i]));
    });
  }

  it('a viewer cannot delete, share, disconnect or edit', () => {
    for (const action of ['project.delete', 'access.invite', 'access.set_role', 'access.remove', 'source.disconnect', 'source.connect', 'project.edit', 'brand_terms.edit', 'funnel.edit', 'funnel.create', 'funnel.delete'] as const) {
      expect(allows(action, 'viewer'), action).toBe(false);
    }
  });

  it('each role can do all its lower role can', () => {
    for (const action of PROJECT_ACTIONS) {
      if (allows(action, 'viewer')) expect(allows(action, 'editor')).toBe(true);
      if (allows(action, 'editor')) expect(allows(action, 'admin')).toBe(true);
    }
  });

  it('a role on the project decides, even for the owner; without one the owner may only recover', () => {
    expect(standingOf('viewer', true)).toBe('viewer');
    expect(standingOf(undefined, true)).toBe('owner');
    expect(standingOf(undefined, false)).toBe('none');
    expect(standingOf(null, false)).toBe('none');
  });

  it('refusals name the role held and the roles needed', () => {
    const refusal = roleRefusal('source.disconnect', 'viewer', 'shop');
    expect(refusal).toMatchObject({ code: 'insufficient_role', status: 403, param: 'project' });
    expect(refusal.message).toBe("Your role on the project 'shop' is viewer; disconnecting a data source needs the admin role.");
    expect(roleRefusal('report.refresh', 'viewer', 'shop', 'force').message).toContain('needs the editor or admin role');
  });
});

describe('the installation policy', () => {
  it('covers every action and every standing', () => {
    expect(Object.keys(INSTALLATION_TABLE).sort()).toEqual([...INSTALLATION_ACTIONS].sort());
    expect([...INSTALLATION_COLUMNS].sort()).toEqual([...INSTALLATION_STANDINGS].sort());
  });

  for (const action of INSTALLATION_ACTIONS) {
    it(`${action}: ${INSTALLATION_COLUMNS.filter((_, i) => INSTALLATION_TABLE[action][i]).join(', ')}`, () => {
      INSTALLATION_COLUMNS.forEach((standing, i) => expect(installationAllows(action, standing), `${action} × ${standing}`).toBe(INSTALLATION_TABLE[action][i]));
    });
  }
});

describe('mayReadProject (the API loaders\' visibility rule)', () => {
  const unrestricted = { projectKeys: null };
  it('follows project.read for every role; no role reads nothing', () => {
    for (const role of ['viewer', 'editor', 'admin'] as const) expect(mayReadProject(unrestricted, { key: 'shop', role })).toBe(allows('project.read', role));
    expect(mayReadProject(unrestricted, { key: 'shop', role: null })).toBe(false);
    expect(mayReadProject(unrestricted, { key: 'shop' })).toBe(false);
  });

  it('a restricted credential reaches only its projects, and only with a role there', () => {
    const restricted = { projectKeys: new Set(['shop']) };
    expect(mayReadProject(restricted, { key: 'shop', role: 'viewer' })).toBe(true);
    expect(mayReadProject(restricted, { key: 'blog', role: 'admin' })).toBe(false);
    expect(mayReadProject(restricted, { key: 'shop', role: null })).toBe(false);
  });
});
