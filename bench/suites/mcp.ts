// MCP tools/call warm throughput against the REST route serving the same data, both eras (2026-07-28 JSON answers,
// 2025-11-25 one-event SSE answers), 10 and 50 connections, alternating rounds on the same server process.
import { compareLoad, loadNote, measureLoad, ROUND_SECONDS, ROUNDS, startBenchServer, warmUp, WARMUP_SECONDS, type LoadTarget } from '../bench-process.ts';
import type { Measurement, SuiteResult } from '../suite.ts';

const MODERN = '2026-07-28';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

function toolCall(name: string, args: Record<string, unknown>, era: 'modern' | 'legacy'): LoadTarget {
  const params = era === 'modern' ? { name, arguments: args, _meta: ENVELOPE } : { name, arguments: args };
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  if (era === 'modern') Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name });
  else headers['mcp-protocol-version'] = '2025-11-25';
  return { path: '/api/mcp', method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) };
}

function toolsList(): LoadTarget {
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };
  return { path: '/api/mcp', method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }) };
}

const PAIRS: [string, LoadTarget, LoadTarget][] = [
  ['get_site_summary (2026-07-28, JSON)', { path: '/api/v1/metrics/acme-shop/summary' }, toolCall('get_site_summary', { project: 'acme-shop' }, 'modern')],
  ['get_site_summary (2025-11-25, SSE)', { path: '/api/v1/metrics/acme-shop/summary' }, toolCall('get_site_summary', { project: 'acme-shop' }, 'legacy')],
  ['get_project (2026-07-28, JSON)', { path: '/api/v1/projects/acme-shop' }, toolCall('get_project', { project: 'acme-shop' }, 'modern')],
];

export default async function mcpSuite(): Promise<SuiteResult> {
  const server = await startBenchServer();
  const measurements: Measurement[] = [];
  try {
    await warmUp(PAIRS.flatMap(([, rest, mcp]) => [{ server, target: rest }, { server, target: mcp }]));
    for (const connections of [10, 50]) {
      for (const [name, rest, mcp] of PAIRS) {
        const c = await compareLoad({ server, target: rest }, { server, target: mcp }, connections);
        measurements.push({
          name: `MCP ${name} / REST, ${connections} connections`,
          value: c.ratio,
          unit: '×',
          target: { op: '>=', value: 0.5 },
          notes: `MCP ${Math.round(c.subject.rps)} req/s (p50 ${c.subject.p50} ms, errors ${c.subject.errors}), REST ${Math.round(c.baseline.rps)} req/s; ${loadNote(c.load)}`,
        });
      }
    }
    const list = await measureLoad(server, toolsList(), 3, 10);
    measurements.push({ name: 'MCP tools/list (2026-07-28), 10 connections', value: Math.round(list.rps), unit: 'req/s', notes: `p50 ${list.p50} ms, errors ${list.errors}; the SDK builds this answer once per protocol form; repeats are replayed with their own id (65 KB each)` });
  } finally {
    await server.stop();
  }
  return {
    suite: 'mcp',
    description: `MCP tools/call against the REST route for the same data, warm cache, loopback HTTP; one server process, every target warmed up first (${WARMUP_SECONDS} s of load each), autocannon, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s per pair (median of per-round ratios). A repeated read call is answered with the kept bytes of its earlier answer (same response cache as REST), so the SDK runs once per call and cache lifetime.`,
    measurements,
  };
}
