// Two app instances on one PostgreSQL database and one Redis, in front of one sandbox whose property has a small
// hourly quota: an aggressive caller asks for ever new reports through both, a dashboard user asks now and then.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRedis } from '../../src/cache/redis-connection.ts';
import { connectTestRedis, deleteByPrefix, TEST_REDIS_URL, uniquePrefix } from '../cache/redis-helpers.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

const TOKENS_PER_HOUR = 60;
const fairUse = { tokensPerHour: TOKENS_PER_HOUR, tokensPerDay: 10_000, tokensPerProjectPerHour: TOKENS_PER_HOUR };

describe.skipIf(TEST_REDIS_URL === undefined || process.env.TEST_DATABASE_URL === undefined)('fair use of one property across two instances', () => {
  let a: SandboxRuntime;
  let b: TestRuntime;
  const keyPrefix = uniquePrefix();
  const sandboxAnswers: { status: number; body: string }[] = [];

  beforeAll(async () => {
    const env = { SITELINE_SECRET_KEY: randomBytes(32).toString('base64'), REDIS_URL: TEST_REDIS_URL! };
    a = await createSandboxRuntime({
      env,
      shared: { keyPrefix, fairUse },
      sandbox: { faults: { analyticsQuota: { tokensPerHour: TOKENS_PER_HOUR, tokensPerProjectPerHour: TOKENS_PER_HOUR } } },
      intercept: async (request, sandboxFetch) => {
        const response = await sandboxFetch(request);
        if (new URL(request.url).pathname.includes('/properties/')) sandboxAnswers.push({ status: response.status, body: await response.clone().text() });
        return response;
      },
    });
    const upstream = (request: Request) => a.sandbox.fetch(request);
    // One database for both: a's PostgreSQL schema in the services pass, a's SQLite file in the embedded one.
    b = await createTestRuntime({ env: { ...env, DATABASE_URL: a.cliEnv.DATABASE_URL ?? join(a.dataDir, 'siteline.sqlite') }, shared: { keyPrefix, fairUse }, upstream });
  }, 60_000);

  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
    const admin = await connectTestRedis();
    await deleteByPrefix(admin, keyPrefix);
    await closeRedis(admin);
  });

  it('throttles the aggressive caller with Retry-After while the dashboard user keeps its answers, and GA never runs out', async () => {
    const account = (await a.store.db.selectFrom('api_keys').select('account_id').executeTakeFirstOrThrow()).account_id;
    const agentKey = (await a.apiKeys.create(account, { name: 'aggressive agent', scopes: ['read'], rateLimitPerMinute: 1_000_000 })).key;
    const dashboard = (path: string) => (Math.random() < 0.5 ? a : b).request(path, { key: a.demo.apiKey });
    const periods = ['today', 'yesterday', '7days', '90days', '180days', '365days', 'month_to_date', 'quarter_to_date', 'year_to_date'];
    const explored = periods.flatMap((period) => ['previous', 'year', 'none'].map((compare) => `/api/v1/metrics/tiny-saas/summary?period=${period}&compare=${compare}`));
    const usual = '/api/v1/metrics/tiny-saas/summary?period=28days';

    expect((await dashboard(usual)).status).toBe(200);
    let throttled: Response | undefined;
    for (const [i, path] of explored.entries()) {
      if (throttled !== undefined) break;
      const res = await (i % 2 === 0 ? a : b).request(path, { key: agentKey });
      if (res.status === 429) throttled = res;
      else expect(res.status, await res.clone().text()).toBe(200);
    }
    expect(throttled, 'the agent was never throttled').toBeDefined();
    expect(throttled!.headers.get('content-type')).toMatch(/problem\+json/);
    expect(Number(throttled!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled!.headers.get('ratelimit')).toMatch(/"property(-share)?";r=0;t=\d+/);

    // The dashboard user, after the agent is cut off: its usual view, and a view nobody asked for yet.
    for (const path of [usual, usual, '/api/v1/metrics/tiny-saas/summary?period=7days', usual]) {
      const res = await dashboard(path);
      expect(res.status, await res.clone().text()).toBe(200);
      const { meta } = (await res.json()) as { meta: { cache: string; warnings?: { code: string }[] } };
      if (meta.cache === 'stale') expect(meta.warnings?.map((w) => w.code)).toEqual(expect.arrayContaining([expect.stringMatching(/quota_conserving|stale_data/)]));
    }
    // The agent stays cut off on the other instance too.
    expect((await b.request(explored.at(-1)!, { key: agentKey })).status).toBe(429);
    expect(sandboxAnswers.length).toBeGreaterThan(0);
    expect(sandboxAnswers.filter((s) => s.status === 429 || s.body.includes('RESOURCE_EXHAUSTED'))).toEqual([]);
  }, 120_000);
});
