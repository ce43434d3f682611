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
    // The answer holds characters beyond Latin-1 before the id (the incomplete-data warning's "24–48 hours"), so
    // where the id goes is a byte offset, not a character index.
    expect(second.text).toMatch(/[\u0100-\uffff][^]*"id":"two"/);
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

describe('lists', () => {
  async function list(era: 'modern' | 'legacy', method: string, id: string | number, key = rt.demo.apiKey) {
    const headers: Record<string, string> = { host: 'siteline.test', accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const params = era === 'modern' ? { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } : {};
    if (era === 'modern') Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': method });
    else headers['mcp-protocol-version'] = '2025-11-25';
    const res = await rt.request('/api/mcp', { method: 'POST', key, headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  }

  it.each(['modern', 'legacy'] as const)('%s: a repeated list is the first answer with the caller’s id, for every caller', async (era) => {
    const first = await list(era, 'tools/list', 1);
    expect(first.status).toBe(200);
    expect(first.text).toContain('"name":"get_site_summary"');
    const other = await rt.apiKeys.create(rt.demo.accountId);
    for (const [id, key] of [[2, rt.demo.apiKey], ['three', other.key], [4, other.key]] as const) {
      const again = await list(era, 'tools/list', id, key);
      expect(again.type).toBe(first.type);
      expect(again.text).toBe(first.text.replace('"id":1}', `"id":${JSON.stringify(id)}}`));
    }
  });

  it('keys a list by protocol headers and message but not by caller; a tool call by caller too', () => {
    const headers = new Headers({ accept: 'application/json', 'mcp-protocol-version': '2025-11-25' });
    const alice = { principal: { credentialId: 'key_a' }, requestId: 'r1' } as Parameters<typeof replayableCall>[0];
    const bob = { principal: { credentialId: 'key_b' }, requestId: 'r2' } as Parameters<typeof replayableCall>[0];
    const toolsList = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(replayableCall(alice, headers, toolsList)).toEqual({ ...replayableCall(bob, headers, { ...toolsList, id: 9 }), id: 1 });
    expect(replayableCall(alice, headers, toolsList)?.list).toBe(true);
    expect(replayableCall(alice, headers, { ...toolsList, params: { cursor: 'x' } })?.key).not.toBe(replayableCall(alice, headers, toolsList)?.key);
    expect(replayableCall(alice, new Headers({ accept: 'text/event-stream' }), toolsList)?.key).not.toBe(replayableCall(alice, headers, toolsList)?.key);
    const toolCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_projects', arguments: {} } };
    expect(replayableCall(alice, headers, toolCall)?.list).toBe(false);
    expect(replayableCall(alice, headers, toolCall)?.key).not.toBe(replayableCall(bob, headers, toolCall)?.key);
    expect(replayableCall(alice, headers, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'x' } })).toBeUndefined();
    expect(replayableCall(alice, headers, { jsonrpc: '2.0', method: 'tools/list' })).toBeUndefined();
    expect(replayableCall(alice, headers, [toolsList])).toBeUndefined();
  });
});
