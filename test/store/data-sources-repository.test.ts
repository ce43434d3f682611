import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createProject } from '../../src/store/projects-repository.ts';
import {
  connectSource,
  disconnectSource,
  listSources,
  listSourcesForProjects,
  readSourceCredential,
  setSourceStatus,
} from '../../src/store/data-sources-repository.ts';
import { createSecretBox, SecretBoxError } from '../../src/store/secret-box.ts';
import { rejectionOf } from '../domain/expect-app-error.ts';
import { describeEachDatabase } from './databases.ts';

const box = createSecretBox(randomBytes(32));
const SERVICE_ACCOUNT = JSON.stringify({ client_email: 'sa@x.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n' });

describeEachDatabase('data sources repository', (fresh) => {
  it('connects sources with encrypted credentials and lists them', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const analytics = await connectSource(store.db, box, project.id, 'analytics', { propertyId: 'properties/123456', credential: { kind: 'service_account', secret: SERVICE_ACCOUNT } });
    // No call with the credential has succeeded yet: pending, not OK.
    expect(analytics).toMatchObject({ source: 'analytics', propertyId: '123456', siteUrl: null, credentialKind: 'service_account', status: 'pending', statusMessage: null });
    await connectSource(store.db, box, project.id, 'engine2', { siteUrl: 'https://shop.example/', credential: { kind: 'api_key', secret: 'bing-key-123' } });
    expect((await listSources(store.db, project.id)).map((s) => s.source)).toEqual(['analytics', 'engine2']);

    const raw = await store.db.selectFrom('data_sources').select('credential_ciphertext').where('source', '=', 'engine2').executeTakeFirstOrThrow();
    expect(raw.credential_ciphertext).toMatch(/^v1:/);
    expect(raw.credential_ciphertext).not.toContain('bing-key-123');
    expect(await readSourceCredential(store.db, box, project.id, 'engine2')).toEqual({ kind: 'api_key', secret: 'bing-key-123' });
    expect(await readSourceCredential(store.db, box, project.id, 'engine1')).toBeUndefined();
  });

  it('keeps one row per (project, source): reconnecting replaces it and resets the status to what the probe found', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    await connectSource(store.db, box, project.id, 'engine1', { siteUrl: 'sc-domain:shop.example', credential: { kind: 'service_account', secret: SERVICE_ACCOUNT } });
    expect(await setSourceStatus(store.db, project.id, 'engine1', 'error', 'invalid_grant')).toBe(true);
    expect((await listSources(store.db, project.id))[0]).toMatchObject({ status: 'error', statusMessage: 'invalid_grant' });
    await connectSource(store.db, box, project.id, 'engine1', { siteUrl: 'https://shop.example/', credential: { kind: 'oauth_refresh_token', secret: '{"refresh_token":"r"}' } });
    const sources = await listSources(store.db, project.id);
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({ siteUrl: 'https://shop.example/', credentialKind: 'oauth_refresh_token', status: 'pending', statusMessage: null });
    await connectSource(store.db, box, project.id, 'engine1', { siteUrl: 'https://shop.example/', credential: { kind: 'oauth_refresh_token', secret: '{"refresh_token":"r"}' }, status: { status: 'error', message: 'not a user of the site' } });
    expect((await listSources(store.db, project.id))[0]).toMatchObject({ status: 'error', statusMessage: 'not a user of the site' });
    await connectSource(store.db, box, project.id, 'engine1', { siteUrl: 'https://shop.example/', credential: { kind: 'oauth_refresh_token', secret: '{"refresh_token":"r"}' }, status: { status: 'ok' } });
    expect((await listSources(store.db, project.id))[0]).toMatchObject({ status: 'ok', statusMessage: null });
  });

  it('binds a ciphertext to its row: moved to another project it does not open', async () => {
    const { store } = await fresh();
    const a = await createProject(store.db, { key: 'a-site', name: 'A', domain: 'a.example' });
    const b = await createProject(store.db, { key: 'b-site', name: 'B', domain: 'b.example' });
    await connectSource(store.db, box, a.id, 'engine2', { siteUrl: 'https://a.example/', credential: { kind: 'api_key', secret: 'secret-a' } });
    await connectSource(store.db, box, b.id, 'engine2', { siteUrl: 'https://b.example/', credential: { kind: 'api_key', secret: 'secret-b' } });
    const stolen = await store.db.selectFrom('data_sources').select('credential_ciphertext').where('project_id', '=', a.id).executeTakeFirstOrThrow();
    await store.db.updateTable('data_sources').set({ credential_ciphertext: stolen.credential_ciphertext }).where('project_id', '=', b.id).execute();
    const error = await rejectionOf(readSourceCredential(store.db, box, b.id, 'engine2'));
    expect(error).toBeInstanceOf(SecretBoxError);
    expect((error as SecretBoxError).message).toContain('could not be authenticated');
  });

  it('validates property ids, site URLs and credential kinds per source', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const sa = { kind: 'service_account', secret: SERVICE_ACCOUNT } as const;
    await expect(connectSource(store.db, box, project.id, 'analytics', { propertyId: 'G-ABC123', credential: sa })).rejects.toMatchObject({ param: 'propertyId' });
    await expect(connectSource(store.db, box, project.id, 'engine1', { siteUrl: 'ftp://x', credential: sa })).rejects.toMatchObject({ param: 'siteUrl' });
    await expect(connectSource(store.db, box, project.id, 'engine2', { siteUrl: 'sc-domain:shop.example', credential: { kind: 'api_key', secret: 'k' } })).rejects.toMatchObject({ param: 'siteUrl' });
    await expect(connectSource(store.db, box, project.id, 'engine2', { siteUrl: 'https://shop.example/', credential: sa })).rejects.toMatchObject({ param: 'credential' });
    await expect(connectSource(store.db, box, project.id, 'analytics', { propertyId: '1', credential: { kind: 'api_key', secret: 'k' } })).rejects.toMatchObject({ param: 'credential' });
    expect(await listSources(store.db, project.id)).toEqual([]);
  });

  it('disconnects (deleting the credential) and batches listing across projects', async () => {
    const { store } = await fresh();
    const a = await createProject(store.db, { key: 'a-site', name: 'A', domain: 'a.example' });
    const b = await createProject(store.db, { key: 'b-site', name: 'B', domain: 'b.example' });
    await connectSource(store.db, box, a.id, 'engine2', { siteUrl: 'https://a.example/', credential: { kind: 'api_key', secret: 'ka' } });
    await connectSource(store.db, box, b.id, 'engine2', { siteUrl: 'https://b.example/', credential: { kind: 'api_key', secret: 'kb' } });
    expect((await listSourcesForProjects(store.db, [a.id, b.id])).map((s) => s.projectId).sort()).toEqual([a.id, b.id].sort());
    expect(await disconnectSource(store.db, a.id, 'engine2')).toBe(true);
    expect(await disconnectSource(store.db, a.id, 'engine2')).toBe(false);
    expect(await readSourceCredential(store.db, box, a.id, 'engine2')).toBeUndefined();
    expect(await setSourceStatus(store.db, a.id, 'engine2', 'ok')).toBe(false);
    expect(await listSourcesForProjects(store.db, [])).toEqual([]);
  });
});
