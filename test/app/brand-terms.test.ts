// A project's brand terms reach the search insights: the default is the domain's name, a list set through the
// store (as the CLI and the dashboard set it) is used by the next answer without force=1, because the write to
// `projects` drops what was cached about the project, and each opportunity's `brand` follows the terms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProjectByKey, updateProjectBrandTerms } from '../../src/store/projects-repository.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
}, 60_000);
afterAll(async () => rt?.dispose());

interface Answer {
  brandTerms: string[];
  opportunities: { query?: string; brand?: boolean }[];
}

const opportunities = async (): Promise<Answer> => {
  const res = await rt.get('/api/v1/metrics/tiny-saas/insights/search-opportunities?period=28days');
  expect(res.status).toBe(200);
  return res.body as Answer;
};

describe('brand terms in search insights', () => {
  it('uses the domain by default, then the stored list at once, none when emptied, then the default again', async () => {
    const project = (await getProjectByKey(rt.store.db, 'tiny-saas'))!;
    expect((await opportunities()).brandTerms).toEqual(['tiny saas', 'tinysaas', 'tiny-saas']);

    await updateProjectBrandTerms(rt.store.db, project.id, ['Stripe']);
    const custom = await opportunities();
    expect(custom.brandTerms).toEqual(['stripe']);
    const withQuery = custom.opportunities.filter((o) => typeof o.query === 'string' && typeof o.brand === 'boolean');
    expect(withQuery.length).toBeGreaterThan(0);
    for (const o of withQuery) expect(o.brand).toBe(o.query!.includes('stripe'));
    expect(withQuery.some((o) => o.brand) && withQuery.some((o) => !o.brand)).toBe(true);

    await updateProjectBrandTerms(rt.store.db, project.id, []);
    const none = await opportunities();
    expect(none.brandTerms).toEqual([]);
    expect(none.opportunities.filter((o) => o.brand === true)).toEqual([]);

    await updateProjectBrandTerms(rt.store.db, project.id, null);
    expect((await opportunities()).brandTerms).toEqual(['tiny saas', 'tinysaas', 'tiny-saas']);
  });
});
