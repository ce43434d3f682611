// The create_funnel preview: each step matched against the observed event names / page paths.
import { describe, expect, it } from 'vitest';
import { matchObservedSteps } from '../../src/mcp/tools/observed-steps.ts';
import type { Principal } from '../../src/auth/principal.ts';

const caller = { principal: { credentialId: 'k', accountId: 'a', kind: 'api_key', scopes: new Set(['read']), projectKeys: null } as Principal, requestId: 'r' };

function depsWith(data: Record<string, unknown> | undefined) {
  const calls: { name: string; variables: Record<string, unknown> }[] = [];
  return {
    calls,
    deps: {
      hasOperation: () => data !== undefined,
      createContext: () => ({ freshUntil: () => Number.POSITIVE_INFINITY }) as never,
      executeOperation: async (name: string, variables: Record<string, unknown>) => {
        calls.push({ name, variables });
        return data![name] as Record<string, unknown>;
      },
    },
  };
}

const observed = {
  ObservedEvents: { observedEvents: { project: 'shop', rows: [{ eventName: 'purchase', eventCount: 40, users: 30 }, { eventName: 'purchase_refund', eventCount: 2, users: 2 }, { eventName: 'page_view', eventCount: 900, users: 300 }] } },
  ObservedPages: { observedPages: { project: 'shop', rows: [{ pagePath: '/products/a', screenPageViews: 300, users: 9 }, { pagePath: '/products/b', screenPageViews: 100, users: 8 }, { pagePath: '/checkout', screenPageViews: 50, users: 7 }] } },
};

describe('matchObservedSteps', () => {
  it('counts what each match type hits, most frequent first, one operation call per step type', async () => {
    const { deps, calls } = depsWith(observed);
    const previews = await matchObservedSteps(deps, caller, 'shop', '7days', [
      { name: 'Products', type: 'page', match: 'begins_with', value: '/products/' },
      { name: 'Checkout', type: 'page', match: 'regex', value: '^/check' },
      { name: 'Buy', type: 'event', match: 'exact', value: 'purchase' },
      { name: 'Any purchase', type: 'event', match: 'contains', value: 'purchase' },
    ]);
    expect(previews.map((p) => [p.matchedValues, p.matchedCount])).toEqual([[2, 400], [1, 50], [1, 40], [2, 42]]);
    expect(previews[0]!.examples).toEqual([{ value: '/products/a', count: 300 }, { value: '/products/b', count: 100 }]);
    expect(calls.map((c) => c.name).sort()).toEqual(['ObservedEvents', 'ObservedPages']);
    expect(calls[0]!.variables).toMatchObject({ project: 'shop', period: '7days' });
  });

  it('warns about a step that matches nothing, naming what was seen', async () => {
    const { deps } = depsWith(observed);
    const [preview] = await matchObservedSteps(deps, caller, 'shop', undefined, [{ name: 'Buy', type: 'event', match: 'exact', value: 'purchse' }]);
    expect(preview).toMatchObject({ checked: true, matchedValues: 0, matchedCount: 0 });
    expect(preview!.warning).toMatch(/Matches no event name .*'purchase'/);
  });

  it('says so when observed data is not available, without failing the preview', async () => {
    const { deps, calls } = depsWith(undefined);
    const [preview] = await matchObservedSteps(deps, caller, 'shop', undefined, [{ name: 'Buy', type: 'event', match: 'exact', value: 'purchase' }]);
    expect(preview).toMatchObject({ checked: false });
    expect(preview!.warning).toMatch(/not available/);
    expect(calls).toEqual([]);
  });
});
