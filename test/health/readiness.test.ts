// /readyz follows the dependencies within a second, both ways: Redis cut → degraded, back → ok (even with no
// cache traffic in between); the database cut → 503 down, back → ok.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { proxiedDatabase, proxyFor, type TcpProxy } from '../helpers/tcp-proxy.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('GET /readyz', () => {
  let rt: TestRuntime;
  let database: Awaited<ReturnType<typeof proxiedDatabase>>;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;

  beforeAll(async () => {
    database = await proxiedDatabase(TEST_DATABASE_URL!);
    pgProxy = database.proxy;
    const redis = await proxyFor(TEST_REDIS_URL!, 6379);
    redisProxy = redis.proxy;
    rt = await createTestRuntime({ env: { DATABASE_URL: database.url, REDIS_URL: redis.url.href }, shared: { keyPrefix: `siteline-test:ready:${Date.now()}:` } });
  });

  afterAll(async () => {
    await rt?.dispose();
    await redisProxy.close();
    await database.dispose();
  });

  const ready = async () => {
    const res = await rt.request('/readyz');
    return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, { status: string }> } };
  };

  it('reports Redis going and coming back within a second', async () => {
    expect((await ready()).body.status).toBe('ok');
    await redisProxy.cut();
    await vi.waitFor(async () => expect((await ready()).body.checks.cache!.status).toBe('degraded'), { timeout: 1_000, interval: 20 });
    // A cache read during the outage falls back (and marks the shared cache failed); none happens after it.
    expect(await rt.shared.cache.get('nothing')).toBeUndefined();
    await redisProxy.restore();
    await vi.waitFor(async () => expect((await ready()).body).toMatchObject({ status: 'ok', checks: { cache: { status: 'ok' } } }), { timeout: 1_000, interval: 20 });
  });

  it('reports the database going and coming back at once', async () => {
    await pgProxy.cut();
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body.checks.database!.status).toBe('down');
    await pgProxy.restore();
    expect(await ready()).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
