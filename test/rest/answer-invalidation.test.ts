// The rule for which kept answers a write drops, and the cache applying it.
import { describe, expect, it } from 'vitest';
import { answersChangedByWrite, answersOfRevokedKey } from '../../src/rest/answer-invalidation.ts';
import { cachedAnswerOf, createResponseCache, responseCacheKey, type KeptAnswers } from '../../src/rest/response-cache.ts';

const picks = (which: KeptAnswers, credentialId: string, operation: string) => (which === 'all' ? true : which({ credentialId, operation }));

describe('answersChangedByWrite', () => {
  it('a status-only update of a data source: the project views alone', () => {
    const which = answersChangedByWrite({ table: 'data_sources', columns: ['status', 'status_message', 'status_at'] });
    expect(picks(which, 'k1', 'Project')).toBe(true);
    expect(picks(which, 'k1', 'ProjectsList')).toBe(true);
    expect(picks(which, 'k1', 'SiteSummary')).toBe(false);
    expect(picks(which, 'k1', 'FunnelsList')).toBe(false);
  });

  it('any other data source write, a write without columns or of an unknown shape: everything', () => {
    expect(answersChangedByWrite({ table: 'data_sources', columns: ['status', 'credential'] })).toBe('all');
    expect(answersChangedByWrite({ table: 'data_sources' })).toBe('all');
    expect(answersChangedByWrite({ table: 'data_sources', columns: [] })).toBe('all');
    expect(answersChangedByWrite({ table: 'projects', columns: ['name'] })).toBe('all');
    expect(answersChangedByWrite({ table: 'account_projects' })).toBe('all');
    expect(answersChangedByWrite(undefined)).toBe('all');
    expect(answersChangedByWrite('funnels')).toBe('all');
  });

  it('a funnel write: the funnel operations alone', () => {
    const which = answersChangedByWrite({ table: 'funnels' });
    expect(picks(which, 'k1', 'FunnelsList')).toBe(true);
    expect(picks(which, 'k1', 'FunnelResults')).toBe(true);
    expect(picks(which, 'k1', 'ProjectsList')).toBe(false);
  });

  it("a key revocation: that credential's answers; without a key id, everything", () => {
    const which = answersOfRevokedKey({ keyId: 'k1' });
    expect(picks(which, 'k1', 'SiteSummary')).toBe(true);
    expect(picks(which, 'k2', 'SiteSummary')).toBe(false);
    expect(answersOfRevokedKey({})).toBe('all');
  });
});

describe('ResponseCache.drop', () => {
  const answer = cachedAnswerOf({ ok: true });
  const key = (credentialId: string, operation: string) => responseCacheKey(credentialId, 'json', { operation, field: 'x' }, { project: 'shop' });

  it('deletes the answers the rule picks, keeps the rest, and retires answers being built', () => {
    const cache = createResponseCache({ now: () => 0 });
    for (const [c, o] of [['k1', 'Project'], ['k1', 'SiteSummary'], ['k2', 'Project']] as const) cache.set(key(c, o), answer, 10_000);
    const builtAt = cache.version();
    cache.drop(({ credentialId, operation }) => credentialId === 'k1' && operation === 'Project');
    expect(cache.get(key('k1', 'Project'))).toBeUndefined();
    expect(cache.get(key('k1', 'SiteSummary'))).toBeDefined();
    expect(cache.get(key('k2', 'Project'))).toBeDefined();
    cache.set(key('k3', 'Project'), answer, 10_000, builtAt);
    expect(cache.get(key('k3', 'Project'))).toBeUndefined();
    cache.drop('all');
    expect(cache.get(key('k1', 'SiteSummary'))).toBeUndefined();
  });
});
