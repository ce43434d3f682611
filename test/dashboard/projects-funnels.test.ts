// Projects and funnels through the dashboard's forms, in-process against the sandbox with the demo data: create,
// edit, share, delete (credentials and funnels go too); funnels created here and by MCP are the same rows, an
// edit is a new version whose results follow the new steps, and the preview validates and counts before saving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { listSources } from '../../src/store/data-sources-repository.ts';
import { funnelVersion } from '../../src/store/funnel-edits-repository.ts';
import { createFunnel, getFunnelByKey, listFunnelsForProject } from '../../src/store/funnels-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { webClient, type WebClient } from './web-client.ts';

let rt: SandboxRuntime;
let demo: WebClient;

async function signIn(email: string, password: string): Promise<WebClient> {
  const client = webClient(rt);
  await client.get('/account/sign-in');
  const res = await client.post('/account/sign-in', { email, password, return_to: '/dashboard' });
  expect(res.location).toBe('/dashboard');
  return client;
}

beforeAll(async () => {
  rt = await createSandboxRuntime();
  const password = rt.demo.password;
  if (!password.known) throw new Error('the test runtime seeds the demo itself, so its password is known');
  demo = await signIn('demo@siteline.example', password.password);
}, 60_000);
afterAll(async () => rt?.dispose());

describe('projects', () => {
  it('create → edit (a bad time zone changes nothing) → share → delete with its credentials and funnels', async () => {
    await demo.get('/dashboard/projects/new');
    const created = await demo.post('/dashboard/projects', { name: 'Side project', key: 'side-project', domain: 'https://Side.example/', timezone: 'Europe/Paris', currency: 'chf' });
    expect(created.location).toBe('/dashboard/p/side-project/sources?done=created');
    const project = (await getProjectByKey(rt.store.db, 'side-project'))!;
    expect(project).toMatchObject({ domain: 'side.example', timezone: 'Europe/Paris', currency: 'CHF' });

    await demo.get('/dashboard/p/side-project/settings');
    const refused = await demo.post('/dashboard/p/side-project/settings', { name: 'Renamed', domain: 'side.example', timezone: 'Mars/Olympus', currency: 'CHF' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('Mars/Olympus');
    expect((await getProjectByKey(rt.store.db, 'side-project'))!.name).toBe('Side project');
    await demo.get('/dashboard/p/side-project/settings');
    expect((await demo.post('/dashboard/p/side-project/settings', { name: 'Renamed', domain: 'side.example', timezone: 'UTC', currency: 'CHF' })).status).toBe(303);
    expect((await getProjectByKey(rt.store.db, 'side-project'))!.name).toBe('Renamed');

    const mate = await createAccount(rt.store.db, { email: 'mate@example.com', name: 'Mate' });
    await setAccountPassword(rt.store.db, mate.id, 'mate password!');
    const mateClient = await signIn('mate@example.com', 'mate password!');
    expect((await mateClient.get('/dashboard/p/side-project')).status).toBe(404);
    await demo.get('/dashboard/p/side-project/settings');
    // Sharing is an invitation: nothing reaches the other account's list until it accepts.
    expect((await demo.post('/dashboard/p/side-project/access/invite', { email: 'mate@example.com', role: 'editor' })).status).toBe(201);
    expect((await mateClient.get('/dashboard/p/side-project/settings')).status).toBe(404);
    const invitations = await mateClient.get('/dashboard/invitations');
    const digest = /name="digest" value="([0-9a-f]{64})"/.exec(invitations.html)![1]!;
    expect((await mateClient.post('/dashboard/invitations/accept', { digest })).location).toBe('/dashboard?done=accepted');
    expect((await mateClient.get('/dashboard/p/side-project/settings')).status).toBe(200);

    await demo.get('/dashboard/p/side-project/sources');
    await demo.post('/dashboard/p/side-project/connect/engine2', { api_key: rt.sandbox.credentials.bingApiKey, site_url: 'https://www.acme-shop.example/' });
    await createFunnel(rt.store.db, { projectId: project.id, name: 'F', steps: [{ name: 'a', type: 'page', match: 'exact', value: '/' }, { name: 'b', type: 'page', match: 'exact', value: '/cart' }], createdVia: 'cli' });
    expect(await listSources(rt.store.db, project.id)).toHaveLength(1);

    await demo.get('/dashboard/p/side-project/settings');
    expect((await demo.post('/dashboard/p/side-project/delete', { confirm: 'side' })).status).toBe(400);
    expect(await getProjectByKey(rt.store.db, 'side-project')).toBeDefined();
    expect((await demo.post('/dashboard/p/side-project/delete', { confirm: 'side-project' })).location).toBe('/dashboard?done=deleted');
    expect(await getProjectByKey(rt.store.db, 'side-project')).toBeUndefined();
    expect(await listSources(rt.store.db, project.id)).toEqual([]);
    expect(await listFunnelsForProject(rt.store.db, project.id)).toEqual([]);
  });

  it('brand terms: the default is shown, a list is saved, a refused one is kept in the box, the default restored', async () => {
    const page = await demo.get('/dashboard/p/acme-shop/settings');
    expect(page.html).toContain('data-default="true"');
    expect(page.html).toContain('<code>acme shop</code>');
    const saved = await demo.post('/dashboard/p/acme-shop/brand-terms', { brand_terms: 'Acme\r\n\r\nAcme Shop\nacme', action: 'save' });
    expect(saved.location).toBe('/dashboard/p/acme-shop/settings?done=brand-terms');
    expect((await getProjectByKey(rt.store.db, 'acme-shop'))!.brandTerms).toEqual(['acme', 'acme shop']);
    const shown = await demo.get('/dashboard/p/acme-shop/settings?done=brand-terms');
    expect(shown.html).toContain('Brand terms saved.');
    expect(shown.html).toContain('data-default="false"');

    const refused = await demo.post('/dashboard/p/acme-shop/brand-terms', { brand_terms: `ok\n${'x'.repeat(101)}`, action: 'save' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('id="brand-error"');
    expect(refused.html).toContain(`ok\n${'x'.repeat(101)}</textarea>`);
    expect((await getProjectByKey(rt.store.db, 'acme-shop'))!.brandTerms).toEqual(['acme', 'acme shop']);

    await demo.get('/dashboard/p/acme-shop/settings');
    expect((await demo.post('/dashboard/p/acme-shop/brand-terms', { brand_terms: '', action: 'save' })).status).toBe(303);
    expect((await getProjectByKey(rt.store.db, 'acme-shop'))!.brandTerms).toEqual([]);
    await demo.get('/dashboard/p/acme-shop/settings');
    expect((await demo.post('/dashboard/p/acme-shop/brand-terms', { brand_terms: 'ignored', action: 'default' })).status).toBe(303);
    expect((await getProjectByKey(rt.store.db, 'acme-shop'))!.brandTerms).toBeNull();
    await demo.get('/dashboard/p/acme-shop/settings');
    expect((await demo.post('/dashboard/p/acme-shop/brand-terms', { brand_terms: 'forged', action: 'save', csrf: 'forged' })).status).toBe(403);
    expect((await getProjectByKey(rt.store.db, 'acme-shop'))!.brandTerms).toBeNull();
  });

  it('a form without the CSRF token, or from another site, changes nothing', async () => {
    await demo.get('/dashboard/p/acme-shop/settings');
    expect((await demo.post('/dashboard/p/acme-shop/delete', { confirm: 'acme-shop', csrf: 'forged' })).status).toBe(403);
    expect(await getProjectByKey(rt.store.db, 'acme-shop')).toBeDefined();
  });
});

describe('funnels', () => {
  const steps = (second: string) => ({ name: 'Home to checkout', step_type: ['page', 'page'], step_match: ['exact', 'begins_with'], step_value: ['/', second], step_name: ['', ''] });

  it('the preview validates RE2 per step and counts users per step before anything is saved', async () => {
    await demo.get('/dashboard/p/acme-shop/funnels/new');
    const bad = await demo.post('/dashboard/p/acme-shop/funnels/preview', { ...steps('/cart'), step_match: ['exact', 'regex'], step_value: ['/', '(unclosed'] });
    expect(JSON.parse(bad.html).errors['steps[1].value']).toContain('not a valid RE2');
    const good = JSON.parse((await demo.post('/dashboard/p/acme-shop/funnels/preview', steps('/cart'))).html) as { preview: { steps: { users: number }[] } };
    expect(good.preview.steps).toHaveLength(2);
    expect(good.preview.steps[0]!.users).toBeGreaterThan(good.preview.steps[1]!.users);
    expect(good.preview.steps[1]!.users).toBeGreaterThan(0);

    // Without JavaScript: the buttons round-trip.
    const added = await demo.post('/dashboard/p/acme-shop/funnels', { ...steps('/cart'), op: 'add' });
    expect(added.html.match(/<fieldset class="step"/g)).toHaveLength(3);
    const previewed = await demo.post('/dashboard/p/acme-shop/funnels', { ...steps('/cart'), op: 'preview' });
    expect(previewed.html).toContain('data-users');
    expect((await listFunnelsForProject(rt.store.db, (await getProjectByKey(rt.store.db, 'acme-shop'))!.id)).filter((f) => f.name === 'Home to checkout')).toEqual([]);
  });

  it('dashboard and MCP funnels are the same list; an edit is a new version whose results follow it', async () => {
    const acme = (await getProjectByKey(rt.store.db, 'acme-shop'))!;
    await createFunnel(rt.store.db, { projectId: acme.id, name: 'From MCP', steps: [{ name: 'x', type: 'event', match: 'exact', value: 'page_view' }, { name: 'y', type: 'page', match: 'exact', value: '/cart' }], createdVia: 'mcp' });
    await demo.get('/dashboard/p/acme-shop/funnels/new');
    expect((await demo.post('/dashboard/p/acme-shop/funnels', { ...steps('/cart'), op: 'save' })).location).toBe('/dashboard/p/acme-shop/funnels?done=saved');
    const list = await demo.get('/dashboard/p/acme-shop/funnels');
    expect(list.html).toContain('From MCP');
    const listed = await rt.get('/api/v1/projects/acme-shop/funnels/list');
    const mine = (listed.body.funnels as { key: string; name: string; createdVia: string }[]).find((f) => f.name === 'Home to checkout')!;
    expect(mine.createdVia).toBe('dashboard');

    const before = await rt.get(`/api/v1/funnels/${mine.key}/results`);
    expect(before.body.steps.map((s: { name: string }) => s.name)).toEqual(['/', '/cart']);
    await demo.get(`/dashboard/p/acme-shop/funnels/${mine.key}`);
    expect((await demo.post(`/dashboard/p/acme-shop/funnels/${mine.key}`, { ...steps('/checkout'), op: 'save' })).status).toBe(303);
    const funnel = (await getFunnelByKey(rt.store.db, mine.key))!;
    expect(await funnelVersion(rt.store.db, funnel.id)).toBe(2);
    const after = await rt.get(`/api/v1/funnels/${mine.key}/results?force=1`);
    expect(after.body.steps.map((s: { name: string }) => s.name)).toEqual(['/', '/checkout']);
    expect(after.body.steps[1].users).not.toBe(before.body.steps[1].users);

    await demo.get(`/dashboard/p/acme-shop/funnels/${mine.key}`);
    await demo.post(`/dashboard/p/acme-shop/funnels/${mine.key}/rename`, { name: 'Checkout path' });
    expect((await getFunnelByKey(rt.store.db, mine.key))!.name).toBe('Checkout path');
    expect(await funnelVersion(rt.store.db, funnel.id)).toBe(2);
    await demo.get(`/dashboard/p/acme-shop/funnels/${mine.key}`);
    await demo.post(`/dashboard/p/acme-shop/funnels/${mine.key}/delete`, { confirm: 'yes' });
    expect(await getFunnelByKey(rt.store.db, mine.key)).toBeUndefined();
  });
});
