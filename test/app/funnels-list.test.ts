// GET /projects/{projectKey}/funnels/list: the stored definitions, only for visible projects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunnel } from '../../src/store/funnels-repository.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let key: string;
let outsider: string;

beforeAll(async () => {
  rt = await createTestRuntime();
  const shop = await createProject(rt.store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
  await createFunnel(rt.store.db, {
    projectId: shop.id,
    key: 'checkout',
    name: 'Checkout',
    createdVia: 'cli',
    steps: [
      { name: 'Product', type: 'page', match: 'begins_with', value: '/products/' },
      { name: 'Purchase', type: 'event', match: 'exact', value: 'purchase' },
    ],
  });
  ({ key } = await createAccountWithKey(rt, { email: 'f@example.com', projects: ['shop'] }));
  ({ key: outsider } = await createAccountWithKey(rt, { email: 'o@example.com', projects: ['other'] }));
});
afterAll(() => rt.dispose());

describe('GET /api/v1/projects/{projectKey}/funnels/list', () => {
  it('lists the funnels with their ordered steps', async () => {
    const res = await rt.request('/api/v1/projects/shop/funnels/list', { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { funnels: Record<string, unknown>[] };
    expect(body.funnels).toHaveLength(1);
    expect(body.funnels[0]).toMatchObject({
      key: 'checkout',
      name: 'Checkout',
      createdVia: 'cli',
      steps: [
        { name: 'Product', type: 'page', match: 'begins_with', value: '/products/' },
        { name: 'Purchase', type: 'event', match: 'exact', value: 'purchase' },
      ],
    });
    expect(Date.parse(body.funnels[0]!.createdAt as string)).not.toBeNaN();
  });

  it('404s for a project the caller cannot see', async () => {
    expect((await rt.request('/api/v1/projects/shop/funnels/list', { key: outsider })).status).toBe(404);
  });
});
