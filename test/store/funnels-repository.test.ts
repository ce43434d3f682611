import { expect, it } from 'vitest';
import { createAccount } from '../../src/store/accounts-repository.ts';
import {
  createFunnel,
  deleteFunnel,
  findFunnelByConfirmationId,
  getFunnelByKey,
  listFunnelsForProject,
  listFunnelsForProjects,
} from '../../src/store/funnels-repository.ts';
import type { FunnelStep } from '../../src/store/funnels-repository.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import { describeEachDatabase } from './databases.ts';

const STEPS: FunnelStep[] = [
  { name: 'Visit', type: 'event', match: 'exact', value: 'page_view' },
  { name: '', type: 'page', match: 'begins_with', value: '/pricing' },
  { name: 'Buy', type: 'event', match: 'regex', value: '^purchase(_v2)?$' },
];

describeEachDatabase('funnels repository', (fresh) => {
  it('creates a funnel with a generated key and ordered steps', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const funnel = await createFunnel(store.db, { projectId: project.id, name: 'Checkout Flow!', steps: STEPS, createdVia: 'cli' });
    expect(funnel.key).toMatch(/^checkout-flow-[a-z0-9]{5}$/);
    expect(funnel.steps.map((s) => s.name)).toEqual(['Visit', '/pricing', 'Buy']);
    expect(await getFunnelByKey(store.db, funnel.key)).toEqual(funnel);
    expect(funnel.createdVia).toBe('cli');
  });

  it('keeps funnel keys unique and lists per project, oldest first', async () => {
    const { store } = await fresh();
    const a = await createProject(store.db, { key: 'a-site', name: 'A', domain: 'a.example' });
    const b = await createProject(store.db, { key: 'b-site', name: 'B', domain: 'b.example' });
    await createFunnel(store.db, { projectId: a.id, name: 'First', steps: STEPS, key: 'first', createdVia: 'cli', now: new Date('2026-01-01T00:00:00Z') });
    await createFunnel(store.db, { projectId: a.id, name: 'Second', steps: STEPS, key: 'second', createdVia: 'dashboard', now: new Date('2026-01-02T00:00:00Z') });
    await createFunnel(store.db, { projectId: b.id, name: 'Other', steps: STEPS, key: 'other', createdVia: 'cli' });
    await expect(createFunnel(store.db, { projectId: b.id, name: 'Dup', steps: STEPS, key: 'first', createdVia: 'cli' })).rejects.toMatchObject({ param: 'key' });
    expect((await listFunnelsForProject(store.db, a.id)).map((f) => f.key)).toEqual(['first', 'second']);
    expect((await listFunnelsForProjects(store.db, [a.id, b.id])).map((f) => f.key).sort()).toEqual(['first', 'other', 'second']);
  });

  it('creates exactly once per confirmation id', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const account = await createAccount(store.db, { email: 'ada@example.com', name: 'Ada' });
    const input = { projectId: project.id, name: 'Via MCP', steps: STEPS, createdVia: 'mcp', createdByAccountId: account.id, confirmationId: 'conf-1' } as const;
    const first = await createFunnel(store.db, input);
    const replay = await createFunnel(store.db, input);
    expect(replay.id).toBe(first.id);
    expect(await listFunnelsForProject(store.db, project.id)).toHaveLength(1);
    expect((await findFunnelByConfirmationId(store.db, 'conf-1'))?.createdByAccountId).toBe(account.id);
  });

  it('reports every invalid step at once', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const bad = [
      { name: 'a', type: 'click', match: 'exact', value: 'x' },
      { name: 'b', type: 'page', match: 'regex', value: '(?=lookahead)' },
    ] as unknown as FunnelStep[];
    const error = await createFunnel(store.db, { projectId: project.id, name: 'Bad', steps: bad, createdVia: 'cli' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_parameter' });
    expect((error as { errors: { param: string }[] }).errors.map((e) => e.param)).toEqual(['steps[0].type', 'steps[1].value']);
    await expect(createFunnel(store.db, { projectId: project.id, name: 'One', steps: STEPS.slice(0, 1), createdVia: 'cli' })).rejects.toMatchObject({ param: 'steps' });
  });

  it('deletes by key', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const funnel = await createFunnel(store.db, { projectId: project.id, name: 'Gone', steps: STEPS, createdVia: 'cli' });
    expect(await deleteFunnel(store.db, funnel.key)).toBe(true);
    expect(await deleteFunnel(store.db, funnel.key)).toBe(false);
    expect(await getFunnelByKey(store.db, funnel.key)).toBeUndefined();
  });
});
