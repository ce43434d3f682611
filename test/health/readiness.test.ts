// /readyz follows the dependencies within a second, both ways: Redis cut → degraded, back → ok (even with no
// cache traffic in between); the database cut → 503 down, back → ok.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('GET /readyz', () => {
  let rt: TestRuntime;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  const proxied = (raw: string, port: number) => {
    const url = new URL(raw);
    url.host = `127.0.0.1:${port}`;
    return url;
  };

  beforeAll(async () => {
    await admin(`create schema ${schema}`);
    const pgTarget = new URL(TEST_DATABASE_URL!);
    const redisTarget = new URL(TEST_REDIS_URL!);
    pgProxy = await startTcpProxy({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) });
    redisProxy = await startTcpProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
    const database = proxied(TEST_DATABASE_URL!, pgProxy.port);
    database.searchParams.set('options', `-c search_path=${schema}`);
    rt = await createTestRuntime({ env: { DATABASE_URL: database.href, REDIS_URL: proxied(TEST_REDIS_URL!, redisProxy.port).href }, shared: { keyPrefix: `siteline-test:${schema}:` } });
  });

  afterAll(async () => {
    await rt?.dispose();
    await pgProxy.close();
    await redisProxy.close();
    await admin(`drop schema if exists ${schema} cascade`);
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
