// force=1 passes every cache layer on its way and refreshes each: the provider caches, the answer REST and MCP keep,
// and an MCP answer kept for replay. The next plain call, through either facade, is answered with what the forced
// call fetched (its fetchedAt), not with what was kept before it and not by running the report again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;

beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

interface Answer {
  status: number;
  cache: string | undefined;
  fetchedAt: string | undefined;
  cacheStatus: string | null;
}

async function rest(path: string): Promise<Answer> {
  const { status, body, headers } = await rt.get(path);
  return { status, cache: body.meta?.cache, fetchedAt: body.meta?.fetchedAt, cacheStatus: headers.get('cache-status') };
}

let nextId = 1;
async function mcp(name: string, args: Record<string, unknown>): Promise<Answer> {
  const headers = { host: 'siteline.test', accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
  const res = await rt.request('/api/mcp', { method: 'POST', key: rt.demo.apiKey, headers, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }) });
  const text = await res.text();
  const rpc = JSON.parse(text.slice(text.indexOf('data: ') + 6).trim()) as { result: { structuredContent: { meta?: { cache: string; fetchedAt: string } } } };
  const meta = rpc.result.structuredContent.meta;
  return { status: res.status, cache: meta?.cache, fetchedAt: meta?.fetchedAt, cacheStatus: null };
}

describe('a forced answer', () => {
  it('is kept for the next plain REST call, which is answered from memory with it', async () => {
    const path = '/api/v1/metrics/acme-shop/summary?period=28days';
    const plain = await rest(path);
    expect(plain.cache).toBe('miss');
    const forced = await rest(`${path}&force=1`);
    expect(forced).toMatchObject({ status: 200, cache: 'refresh', cacheStatus: 'siteline; fwd=request; stored' });
    expect(forced.fetchedAt).not.toBe(plain.fetchedAt);
    rt.sandbox.resetStats();
    const after = await rest(path);
    expect(after).toMatchObject({ cache: 'hit', fetchedAt: forced.fetchedAt, cacheStatus: 'siteline; hit' });
    // force=0 is a plain call of the same answer; any other value is refused, however much is kept.
    expect(await rest(`${path}&force=0`)).toMatchObject({ cache: 'hit', fetchedAt: forced.fetchedAt });
    expect((await rest(`${path}&force=yes`)).status).toBe(400);
    expect(rt.sandbox.stats().total).toBe(0);
  });

  it('replaces an MCP answer kept for replay, and serves REST too', async () => {
    const args = { project: 'northwind-journal', period: '90days' };
    const first = await mcp('get_site_summary', args);
    expect(first.cache).toBe('miss');
    // A repeat is answered from the cache and its whole MCP answer kept for replay.
    expect(await mcp('get_site_summary', args)).toMatchObject({ cache: 'hit', fetchedAt: first.fetchedAt });
    const forced = await mcp('get_site_summary', { ...args, force: '1' });
    expect(forced.cache).toBe('refresh');
    expect(forced.fetchedAt).not.toBe(first.fetchedAt);
    expect(await mcp('get_site_summary', args)).toMatchObject({ cache: 'hit', fetchedAt: forced.fetchedAt });
    expect(await rest('/api/v1/metrics/northwind-journal/summary?period=90days')).toMatchObject({ cache: 'hit', fetchedAt: forced.fetchedAt });
  });
});
