import { describe, expect, it } from 'vitest';
import { createAccount } from '../../src/store/accounts-repository.ts';
import {
  accountMaySeeProject,
  createProject,
  getProjectByKey,
  getProjectsByKeys,
  grantProjectAccess,
  listProjects,
  listProjectsForAccount,
  parseBrandTerms,
  revokeProjectAccess,
  updateProjectBrandTerms,
} from '../../src/store/projects-repository.ts';
import { describeEachDatabase } from './databases.ts';

describeEachDatabase('projects repository', (fresh) => {
  it('creates a project with defaults and normalised fields', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'https://Shop.Example.com/', currency: 'eur' });
    expect(project).toMatchObject({ key: 'shop', name: 'Shop', domain: 'shop.example.com', timezone: 'UTC', currency: 'EUR' });
    expect(await getProjectByKey(store.db, 'shop')).toEqual(project);
    expect(await getProjectByKey(store.db, 'nope')).toBeUndefined();
  });

  it.each([
    [{ key: 'Bad Key' }, 'key'],
    [{ key: 'a' }, 'key'],
    [{ key: '-lead' }, 'key'],
    [{ timezone: 'Mars/Olympus' }, 'timezone'],
    [{ currency: 'EURO' }, 'currency'],
    [{ domain: 'not a domain' }, 'domain'],
  ])('rejects %o naming %s', async (override, param) => {
    const { store } = await fresh();
    await expect(createProject(store.db, { key: 'ok-key', name: 'X', domain: 'example.com', ...override })).rejects.toMatchObject({ code: 'invalid_parameter', param });
  });

  it('keeps project keys unique', async () => {
    const { store } = await fresh();
    await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    await expect(createProject(store.db, { key: 'shop', name: 'Other', domain: 'other.example' })).rejects.toMatchObject({ param: 'key' });
  });

  it('lists an account’s projects by key, and only those it was granted', async () => {
    const { store } = await fresh();
    const ada = await createAccount(store.db, { email: 'ada@example.com', name: 'Ada' });
    const bob = await createAccount(store.db, { email: 'bob@example.com', name: 'Bob' });
    const zeta = await createProject(store.db, { key: 'zeta', name: 'Z', domain: 'z.example' });
    const alpha = await createProject(store.db, { key: 'alpha', name: 'A', domain: 'a.example' });
    await createProject(store.db, { key: 'mid', name: 'M', domain: 'm.example' });
    await grantProjectAccess(store.db, ada.id, zeta.id);
    await grantProjectAccess(store.db, ada.id, alpha.id);
    await grantProjectAccess(store.db, ada.id, alpha.id); // idempotent
    expect((await listProjectsForAccount(store.db, ada.id)).map((p) => p.key)).toEqual(['alpha', 'zeta']);
    expect(await listProjectsForAccount(store.db, bob.id)).toEqual([]);
    expect((await listProjects(store.db)).map((p) => p.key)).toEqual(['alpha', 'mid', 'zeta']);
    expect(await accountMaySeeProject(store.db, ada.id, zeta.id)).toBe(true);
    expect(await accountMaySeeProject(store.db, bob.id, zeta.id)).toBe(false);
    expect(await revokeProjectAccess(store.db, ada.id, zeta.id)).toBe(true);
    expect((await listProjectsForAccount(store.db, ada.id)).map((p) => p.key)).toEqual(['alpha']);
  });

  it('gets several projects by key, skipping unknown ones', async () => {
    const { store } = await fresh();
    await createProject(store.db, { key: 'b-site', name: 'B', domain: 'b.example' });
    await createProject(store.db, { key: 'a-site', name: 'A', domain: 'a.example' });
    expect((await getProjectsByKeys(store.db, ['b-site', 'ghost', 'a-site'])).map((p) => p.key)).toEqual(['a-site', 'b-site']);
    expect(await getProjectsByKeys(store.db, [])).toEqual([]);
  });

  it('stores brand terms as a normalised list, an empty list, or null for the default', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'acme.example' });
    expect(project.brandTerms).toBeNull();
    expect(await updateProjectBrandTerms(store.db, project.id, ['  ACME\tShop', 'acme shop', '', 'Acme'])).toEqual(['acme shop', 'acme']);
    expect((await getProjectByKey(store.db, 'shop'))?.brandTerms).toEqual(['acme shop', 'acme']);
    expect((await getProjectsByKeys(store.db, ['shop']))[0]?.brandTerms).toEqual(['acme shop', 'acme']);
    await updateProjectBrandTerms(store.db, project.id, []);
    expect((await getProjectByKey(store.db, 'shop'))?.brandTerms).toEqual([]);
    await updateProjectBrandTerms(store.db, project.id, null);
    expect((await getProjectByKey(store.db, 'shop'))?.brandTerms).toBeNull();
  });

  it('reads a hand-edited brand terms value that is not a list of strings as the default', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'acme.example' });
    await store.db.updateTable('projects').set({ brand_terms: '{"not":"a list"}' }).where('id', '=', project.id).execute();
    expect((await getProjectByKey(store.db, 'shop'))?.brandTerms).toBeNull();
  });
});

describe('parseBrandTerms', () => {
  it('refuses overlong terms and too many terms, naming brandTerms', () => {
    expect(() => parseBrandTerms(['x'.repeat(101)])).toThrow(expect.objectContaining({ code: 'invalid_parameter', param: 'brandTerms' }));
    expect(() => parseBrandTerms(Array.from({ length: 51 }, (_, i) => `term ${i}`))).toThrow(expect.objectContaining({ param: 'brandTerms' }));
    expect(parseBrandTerms(Array.from({ length: 50 }, (_, i) => `term ${i}`))).toHaveLength(50);
  });
});
