// Repeated MCP tool calls: the answer of a cached read is kept and replayed byte for byte with the caller's id, in
// both protocol eras; REST and MCP share cached answers; a write drops kept answers like any other cached one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayableCall } from '../../src/mcp/answer-replay.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

const MODERN = '2026-07-28';
let rt: SandboxRuntime;

beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

function toolCall(era: 'modern' | 'legacy', name: string, args: Record<string, unknown>, id: string | number) {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  const params = era === 'modern' ? { name, arguments: args, _meta: envelope } : { name, arguments: args };
  const headers: Record<string, string> = { host: 'siteline.test', accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  if (era === 'modern') Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name });
  else headers['mcp-protocol-version'] = '2025-11-25';
  return { headers, message: { jsonrpc: '2.0', id, method: 'tools/call', params } };
}

async function call(era: 'modern' | 'legacy', name: string, args: Record<string, unknown>, id: string | number) {
  const { headers, message } = toolCall(era, name, args, id);
  const res = await rt.request('/api/mcp', { method: 'POST', key: rt.demo.apiKey, headers, body: JSON.stringify(message) });
  const text = await res.text();
  const json = era === 'legacy' ? text.slice(text.indexOf('data: ') + 6).trim() : text;
  const rpc = JSON.parse(json) as { id: unknown; result: { structuredContent: { meta?: { cache: string }; project?: { name: string } }; isError?: boolean } };
  const sdkHeaders = ['content-type', 'cache-control', 'x-accel-buffering'].map((h) => res.headers.get(h));
  return { status: res.status, text, rpc, sdkHeaders };
}

async function keptAnswerOf(era: 'modern' | 'legacy', name: string, args: Record<string, unknown>) {
  const { headers, message } = toolCall(era, name, args, 0);
  const principal = await rt.deps.authenticate(new Request('http://siteline.test/', { headers: { authorization: `Bearer ${rt.demo.apiKey}` } }), '127.0.0.1');
  const caller = { principal, requestId: 'x' };
  return rt.deps.responseCache.get(replayableCall(caller, new Headers(headers), message)!.key);
}

describe.each(['modern', 'legacy'] as const)('%s tools/call', (era) => {
  it('replays the answer of a cached read with the caller’s id, as the SDK answered it', async () => {
    const args = { project: 'northwind-journal', period: era === 'modern' ? '7days' : '90days' };
    const first = await call(era, 'get_site_summary', args, 1);
    expect(first.rpc.result.structuredContent.meta?.cache).toBe('miss');
    expect(await keptAnswerOf(era, 'get_site_summary', args)).toBeUndefined();
    const second = await call(era, 'get_site_summary', args, 'two');
    expect(second.rpc.result.structuredContent.meta?.cache).toBe('hit');
    expect(await keptAnswerOf(era, 'get_site_summary', args)).toBeDefined();
    const third = await call(era, 'get_site_summary', args, 3);
    expect(third.status).toBe(200);
    expect(third.rpc.id).toBe(3);
    expect(third.text).toBe(second.text.replace('"id":"two"', '"id":3'));
    expect(third.sdkHeaders).toEqual(second.sdkHeaders);
  });
});

describe('one cache for REST and MCP', () => {
  it('answers an MCP call from what REST cached', async () => {
    const rest = await rt.get('/api/v1/metrics/acme-shop/summary?period=28days');
    expect(rest.body.meta.cache).toBe('miss');
    const mcp = await call('modern', 'get_site_summary', { project: 'acme-shop', period: '28days' }, 7);
    expect(mcp.rpc.result.structuredContent).toEqual({ ...rest.body, meta: { ...rest.body.meta, cache: 'hit' } });
  });

  it('drops kept answers on a write', async () => {
    const args = { project: 'tiny-saas' };
    for (const id of [1, 2, 3]) await call('legacy', 'get_project', args, id);
    expect(await keptAnswerOf('legacy', 'get_project', args)).toBeDefined();
    await rt.store.db.updateTable('projects').set({ name: 'Tiny SaaS renamed' }).where('key', '=', 'tiny-saas').execute();
    expect(await keptAnswerOf('legacy', 'get_project', args)).toBeUndefined();
    expect((await call('legacy', 'get_project', args, 4)).rpc.result.structuredContent.project?.name).toBe('Tiny SaaS renamed');
  });
});
