import { describe, expect, it, vi } from 'vitest';
import { createCachedFetch } from '../../src/cache/cached-fetch.ts';
import { createMemoryCacheStore } from '../../src/cache/memory-cache-store.ts';
import { createMetrics } from '../../src/observability/metrics.ts';
import { createPropertyFairUse, levelOf, type Caller } from '../../src/limits/property-fair-use.ts';
import { manualClock, TEST_REDIS_URL, useTwoInstancesRedis } from '../cache/redis-helpers.ts';

const agent: Caller = { id: 'agent-key', kind: 'oauth' };
const user: Caller = { id: 'dashboard-key', kind: 'api_key' };
// 100 tokens an hour: the agent's share is 25, an interactive caller's 50.
const config = { tokensPerHour: 100, tokensPerDay: 1_000, tokensPerProjectPerHour: 100 };

describe('property fair use', () => {
  it('names the degradation order by the share of quota left', () => {
    expect([0.6, 0.4, 0.2, 0.05].map(levelOf)).toEqual(['normal', 'conserve', 'essential', 'throttle']);
  });

  it('caps one agent at its share of the hour while an interactive caller keeps its own', async () => {
    const fair = createPropertyFairUse({ config });
    for (let i = 0; i < 25; i++) expect(await fair.admit('ga-1', agent, 'load')).toBeUndefined();
    const refused = await fair.admit('ga-1', agent, 'load');
    expect(refused).toMatchObject({ code: 'rate_limited', headers: { 'Retry-After': expect.stringMatching(/^\d+$/), ratelimit: expect.stringMatching(/^"property-share";r=0;t=\d+$/) } });
    expect(await fair.admit('ga-1', user, 'load')).toBeUndefined();
    // Another data source is another bucket.
    expect(await fair.admit('ga-2', agent, 'load')).toBeUndefined();
  });

  it('refuses refreshes and reloads first, force next, and agents last as the quota runs out', async () => {
    // Ten minutes before the hour's tokens return.
    const fair = createPropertyFairUse({ config, now: () => Date.UTC(2026, 0, 1, 9, 50, 0) });
    await fair.observe('ga-1', { tokensPerHour: 40, tokensPerDay: 900 });
    expect((await fair.pressure('ga-1')).level).toBe('conserve');
    // The project's hourly bucket counts as much as the property's.
    const project = createPropertyFairUse({ config });
    await project.observe('ga-1', { tokensPerHour: 100, tokensPerProjectPerHour: 20 });
    expect((await project.pressure('ga-1')).level).toBe('essential');
    expect(await fair.admit('ga-1', user, 'refresh')).toBeDefined();
    expect(await fair.admit('ga-1', user, 'reload')).toBeDefined();
    expect(await fair.admit('ga-1', user, 'force')).toBeUndefined();
    expect(await fair.admit('ga-1', agent, 'load')).toBeUndefined();
    await fair.observe('ga-1', { tokensPerHour: 20, tokensPerDay: 900 });
    expect(await fair.admit('ga-1', user, 'force')).toMatchObject({ code: 'rate_limited' });
    expect(await fair.admit('ga-1', agent, 'load')).toBeUndefined();
    await fair.observe('ga-1', { tokensPerHour: 5, tokensPerDay: 900 });
    expect(await fair.admit('ga-1', agent, 'load')).toMatchObject({ code: 'rate_limited', headers: { 'Retry-After': '600', ratelimit: '"property";r=0;t=600' } });
    expect(await fair.admit('ga-1', user, 'load')).toBeUndefined();
  });

  it('predicts when the hourly tokens run out and shows it with the remaining tokens in /metrics', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 1, 9, 0, 0));
    const fair = createPropertyFairUse({ config, now: clock.now });
    await fair.observe('analytics:1', { tokensPerHour: 90, tokensPerDay: 900 });
    clock.advance(60_000);
    await fair.observe('analytics:1', { tokensPerHour: 80, tokensPerDay: 890 });
    // 10 tokens a minute: 80 left last 8 minutes.
    expect(fair.observed().get('analytics:1')).toMatchObject({ tokensPerHour: 80, exhaustsInSec: 480 });
    const metrics = createMetrics({ defaultMetrics: false });
    metrics.watchQuota(fair);
    const text = await metrics.render();
    expect(text).toContain('siteline_provider_quota_remaining_tokens{source="analytics:1",bucket="hour"} 80');
    expect(text).toContain('siteline_provider_quota_remaining_tokens{source="analytics:1",bucket="day"} 890');
    expect(text).toContain('siteline_provider_quota_exhaustion_seconds{source="analytics:1"} 480');
  });

  it('answers a refused reload from the stale copy with a warning, without asking upstream', async () => {
    const clock = manualClock();
    const fair = createPropertyFairUse({ config });
    const cachedFetch = createCachedFetch({ store: createMemoryCacheStore({ now: clock.now }), now: clock.now });
    const policy = { freshMs: 1_000, revalidateMs: 1_000, staleIfErrorMs: 3_600_000 };
    const load = vi.fn(async () => ({ n: load.mock.calls.length }));
    const admit = (caller: Caller) => (work: Parameters<typeof fair.admit>[2]) => fair.admit('ga-1', caller, work);
    await cachedFetch({ key: 'k', source: 'ga-1', policy, load, admit: admit(user) });
    clock.advance(5_000);
    await fair.observe('ga-1', { tokensPerHour: 40 });
    const answer = await cachedFetch({ key: 'k', source: 'ga-1', policy, load, admit: admit(user) });
    expect(answer).toMatchObject({ cache: 'stale', value: { n: 1 }, warnings: [{ code: 'quota_conserving' }] });
    expect(load).toHaveBeenCalledTimes(1);
    // Nothing cached: a refused load is the 429 itself, never the provider's.
    await fair.observe('ga-1', { tokensPerHour: 5 });
    await expect(cachedFetch({ key: 'other', source: 'ga-1', policy, load, admit: admit(agent) })).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('property fair use across instances', () => {
  const redis = useTwoInstancesRedis();
  const { prefix } = redis;

  it('shares the agent bucket and the observed quota between two instances', async () => {
    const a = createPropertyFairUse({ redis: redis.one, prefix, config });
    const b = createPropertyFairUse({ redis: redis.two, prefix, config });
    for (let i = 0; i < 25; i++) expect(await (i % 2 === 0 ? a : b).admit('ga-1', agent, 'load')).toBeUndefined();
    expect(await a.admit('ga-1', agent, 'load')).toMatchObject({ code: 'rate_limited' });
    expect(await b.admit('ga-1', agent, 'load')).toMatchObject({ code: 'rate_limited' });
    await a.observe('ga-1', { tokensPerHour: 5 });
    expect((await b.pressure('ga-1')).level).toBe('throttle');
  });
});
