// PostgreSQL unreachable (a proxy in front of the real server is cut): reads the process already answered keep
// being served; anything that needs the database gets 503 dependency_unavailable with Retry-After on REST, MCP
// and GraphQL; writes are refused and leave nothing behind; the first request after the database is back works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeysForAccount } from '../../src/store/api-keys-repository.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { proxiedDatabase, type TcpProxy } from '../helpers/tcp-proxy.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!TEST_DATABASE_URL)('database outage', () => {
  let rt: SandboxRuntime;
  let database: Awaited<ReturnType<typeof proxiedDatabase>>;
  let proxy: TcpProxy;
  let freshKey: string;

  beforeAll(async () => {
    database = await proxiedDatabase(TEST_DATABASE_URL!);
    proxy = database.proxy;
    rt = await createSandboxRuntime({ env: { DATABASE_URL: database.url } });
    // A key nobody has used yet: its first check needs the database.
    freshKey = (await rt.apiKeys.create(rt.demo.accountId, { name: 'fresh' })).key;
    // Warm: the demo key is verified and acme-shop's metadata and report were read.
    expect((await rt.get('/api/v1/metrics/acme-shop/summary?period=28days')).status).toBe(200);
  });

  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await rt?.dispose();
    await database.dispose();
  });

  const mcpCall = (key: string, name: string, args: Record<string, unknown>) =>
    rt.request('/api/mcp', {
      method: 'POST',
      key,
      headers: { host: 'siteline.test', accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });

  it('keeps serving reads from memory and refuses the rest with 503 + Retry-After', async () => {
    await proxy.cut();
    try {
      // Warm route, and a cold report of a project whose metadata was read before: both still answer.
      expect((await rt.get('/api/v1/metrics/acme-shop/summary?period=28days')).status).toBe(200);
      expect((await rt.get('/api/v1/metrics/acme-shop/summary?period=7days')).status).toBe(200);

      const rest = await rt.request('/api/v1/projects/list', { key: freshKey });
      expect(rest.status).toBe(503);
      expect(rest.headers.get('content-type')).toContain('application/problem+json');
      expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await rest.json()).toMatchObject({ status: 503, code: 'dependency_unavailable' });

      const mcpAuth = await mcpCall(freshKey, 'list_projects', {});
      expect(mcpAuth.status).toBe(503);
      expect(mcpAuth.headers.get('retry-after')).toMatch(/^\d+$/);

      // A verified key, but store data this process never read: a tool error naming the code.
      const tool = await mcpCall(rt.demo.apiKey, 'list_funnels', { project: 'northwind-journal' });
      expect(tool.status).toBe(200);
      const text = await tool.text();
      const data = text.startsWith('{') ? text : text.split('\n').find((line) => line.startsWith('data: '))!.slice('data: '.length);
      const result = (JSON.parse(data) as { result: { isError: boolean; content: { text: string }[] } }).result;
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/^dependency_unavailable: /);

      const graphql = await rt.request('/api/graphql', {
        method: 'POST',
        key: freshKey,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ projects { key } }' }),
      });
      expect(graphql.status).toBe(503);
      expect(graphql.headers.get('retry-after')).toMatch(/^\d+$/);

      const write = await rt.apiKeys.create(rt.demo.accountId, { name: 'during outage' }).catch((error: unknown) => error);
      expect(write).toMatchObject({ code: 'dependency_unavailable', status: 503 });
    } finally {
      await proxy.restore();
    }
    // Back: the first request needing the database works, and the refused write left nothing behind.
    expect((await rt.request('/api/v1/projects/list', { key: freshKey })).status).toBe(200);
    const keys = await listApiKeysForAccount(rt.store.db, rt.demo.accountId);
    expect(keys.map((k) => k.name)).not.toContain('during outage');
  });
});
