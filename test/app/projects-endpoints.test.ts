// The projects endpoints through the whole app: visibility per account and key restriction, the Project shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSource } from '../../src/store/data-sources-repository.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let alice: { key: string };
let bob: { key: string };
let aliceRestricted: { key: string };

beforeAll(async () => {
  rt = await createTestRuntime();
  const shop = await createProject(rt.store.db, { key: 'shop', name: 'Shop', domain: 'shop.example', timezone: 'Pacific/Kiritimati', currency: 'EUR' });
  await createProject(rt.store.db, { key: 'blog', name: 'Blog', domain: 'blog.example' });
  await createProject(rt.store.db, { key: 'zeta', name: 'Zeta', domain: 'zeta.example' });
  await connectSource(rt.store.db, rt.box, shop.id, 'analytics', { propertyId: '123456', credential: { kind: 'service_account', secret: '{"client_email":"a@b","private_key":"k"}' } });
  await connectSource(rt.store.db, rt.box, shop.id, 'engine2', { siteUrl: 'https://shop.example/', credential: { kind: 'api_key', secret: 'bingkey' } });
  alice = await createAccountWithKey(rt, { email: 'alice@example.com', projects: ['zeta', 'shop', 'blog'] });
  bob = await createAccountWithKey(rt, { email: 'bob@example.com', projects: ['blog'] });
  aliceRestricted = await createAccountWithKey(rt, { email: 'alice2@example.com', projects: ['shop', 'blog'], projectKeys: ['blog'] });
});
afterAll(() => rt.dispose());

describe('GET /api/v1/projects/list', () => {
  it('lists only the projects the account may read, sorted by key', async () => {
    const res = await rt.request('/api/v1/projects/list', { key: alice.key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = (await res.json()) as { projects: { key: string }[] };
    expect(body.projects.map((p) => p.key)).toEqual(['blog', 'shop', 'zeta']);

    const bobs = (await (await rt.request('/api/v1/projects/list', { key: bob.key })).json()) as { projects: { key: string }[] };
    expect(bobs.projects.map((p) => p.key)).toEqual(['blog']);
  });

  it('honours a key restricted to some projects', async () => {
    const body = (await (await rt.request('/api/v1/projects/list', { key: aliceRestricted.key })).json()) as { projects: { key: string }[] };
    expect(body.projects.map((p) => p.key)).toEqual(['blog']);
  });

  it('carries rate-limit fields and a request id', async () => {
    const res = await rt.request('/api/v1/projects/list', { key: bob.key, headers: { 'x-request-id': 'client-chosen-id-42' } });
    expect(res.headers.get('x-request-id')).toBe('client-chosen-id-42');
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=600;w=60, "burst";q=60;w=1');
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+, "burst";r=\d+;t=\d+$/);
  });

  it('a key with a tiny limit gets its whole quota, and the burst it could hit is stated', async () => {
    const tiny = await createAccountWithKey(rt, { email: 'tiny@example.com', projects: ['blog'] });
    await rt.store.db.updateTable('api_keys').set({ rate_limit_per_min: 2 }).where('id', '=', tiny.keyId).execute();
    rt.apiKeys.invalidate(tiny.keyId);
    const first = await rt.request('/api/v1/projects/list', { key: tiny.key });
    const second = await rt.request('/api/v1/projects/list', { key: tiny.key });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('ratelimit-policy')).toBe('"default";q=2;w=60, "burst";q=2;w=1');
    const third = await rt.request('/api/v1/projects/list', { key: tiny.key });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { detail: string }).detail).toContain('at most 2 per 60 s');
  });

  it('replaces an insane client request id', async () => {
    const res = await rt.request('/api/v1/projects/list', { key: bob.key, headers: { 'x-request-id': 'bad id\twith tab' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /api/v1/projects/{projectKey}', () => {
  it('returns the Project shape with data sources in the neutral words', async () => {
    const res = await rt.request('/api/v1/projects/shop', { key: alice.key });
    expect(res.status).toBe(200);
    const { project } = (await res.json()) as { project: Record<string, unknown> };
    expect(project).toMatchObject({ key: 'shop', name: 'Shop', domain: 'shop.example', timezone: 'Pacific/Kiritimati', currency: 'EUR' });
    expect(project.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(project.dataSources).toEqual({
      // Stored without a probe and never read since: connected, but not known to work.
      analytics: { connected: true, propertyId: '123456', status: 'pending', displayName: 'Google Analytics 4' },
      engine1: { connected: false, status: 'not_connected', displayName: 'Google Search Console' },
      engine2: { connected: true, siteUrl: 'https://shop.example/', status: 'pending', displayName: 'Bing Webmaster Tools' },
    });
    expect(JSON.stringify(project)).not.toMatch(/bingkey|private_key/);
  });

  it("uses the project's time zone for today", async () => {
    const { project } = (await (await rt.request('/api/v1/projects/shop', { key: alice.key })).json()) as { project: { today: string } };
    const kiritimati = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    expect(project.today).toBe(kiritimati);
  });

  it('answers unknown and forbidden projects with the same 404 body', async () => {
    const unknown = await rt.request('/api/v1/projects/nope', { key: bob.key });
    const forbidden = await rt.request('/api/v1/projects/shop', { key: bob.key });
    const restricted = await rt.request('/api/v1/projects/shop', { key: aliceRestricted.key });
    for (const res of [unknown, forbidden, restricted]) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    }
    const strip = (b: Record<string, unknown>) => ({ ...b, request_id: undefined, detail: String(b.detail).replace(/'[^']+'/, "'…'") });
    const [a, b] = [strip((await unknown.json()) as Record<string, unknown>), strip((await forbidden.json()) as Record<string, unknown>)];
    expect(a).toEqual(b);
    expect(a).toMatchObject({ type: '/api/v1/errors#not_found', status: 404, code: 'not_found', title: 'Not found' });
  });
});
