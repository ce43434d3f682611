// MCP tools/call warm throughput against the REST route serving the same data (issue 5: target ≥ 0.25×).
// One server process (this file re-run as a child, so autocannon does not share its event loop) with the real
// runtime over the in-process sandbox; every target is measured over loopback HTTP with autocannon, 2 s warm-up
// plus 6 s measured, after which the ratio of MCP to REST requests per second is reported.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Measurement, SuiteResult } from '../suite.ts';

const CHILD_FLAG = 'SITELINE_BENCH_MCP_SERVER';
const CONNECTIONS = 10;
const WARMUP_S = 2;
const MEASURE_S = 6;

interface Target {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

interface Cannon {
  (options: { url: string; connections: number; duration: number; method: string; headers: Record<string, string>; body?: string }): Promise<{
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  }>;
}

const MODERN = '2026-07-28';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

function toolCall(name: string, args: Record<string, unknown>, era: 'modern' | 'legacy'): Target {
  const params = era === 'modern' ? { name, arguments: args, _meta: ENVELOPE } : { name, arguments: args };
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  if (era === 'modern') Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name });
  else headers['mcp-protocol-version'] = '2025-11-25';
  return { name: `MCP tools/call ${name} (${era})`, path: '/api/mcp', method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) };
}

function toolsList(): Target {
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };
  return { name: 'MCP tools/list (modern)', path: '/api/mcp', method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }) };
}

export default async function mcpSuite(): Promise<SuiteResult> {
  const autocannon = ((await import(['auto', 'cannon'].join(''))) as { default: Cannon }).default;
  const server = await startChild();
  const auth = { authorization: `Bearer ${server.key}` };
  const run = async (target: Target) => {
    const init = { method: target.method, headers: { ...auth, ...target.headers }, body: target.body };
    const probe = await fetch(server.url + target.path, init);
    const text = await probe.text();
    if (!probe.ok || /"isError":true/.test(text)) throw new Error(`${target.name} answered ${probe.status}: ${text.slice(0, 300)}`);
    await autocannon({ url: server.url + target.path, connections: CONNECTIONS, duration: WARMUP_S, ...init });
    const result = await autocannon({ url: server.url + target.path, connections: CONNECTIONS, duration: MEASURE_S, ...init });
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
  };
  const measurements: Measurement[] = [];
  try {
    const pairs: [Target, Target][] = [
      [{ name: 'REST GET summary', path: '/api/v1/metrics/acme-shop/summary', method: 'GET' }, toolCall('get_site_summary', { project: 'acme-shop' }, 'modern')],
      [{ name: 'REST GET project', path: '/api/v1/projects/acme-shop', method: 'GET' }, toolCall('get_project', { project: 'acme-shop' }, 'modern')],
    ];
    for (const [rest, mcp] of pairs) {
      const restResult = await run(rest);
      const mcpResult = await run(mcp);
      for (const [target, r] of [[rest, restResult], [mcp, mcpResult]] as const) {
        measurements.push({ name: target.name, value: Math.round(r.rps), unit: 'req/s', notes: `p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}` });
      }
      measurements.push({ name: `${mcp.name} / ${rest.name}`, value: Number((mcpResult.rps / restResult.rps).toFixed(3)), unit: '×', target: { op: '>=', value: 0.25 } });
    }
    for (const target of [toolCall('get_site_summary', { project: 'acme-shop' }, 'legacy'), toolsList()]) {
      const r = await run(target);
      measurements.push({ name: target.name, value: Math.round(r.rps), unit: 'req/s', notes: `p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}` });
    }
  } finally {
    await server.stop();
  }
  return {
    suite: 'mcp',
    description: `MCP tools/call vs the REST route for the same data, warm cache, loopback HTTP; server in its own process, autocannon ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${MEASURE_S} s per target.`,
    measurements,
  };
}

async function startChild(): Promise<{ url: string; key: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [import.meta.filename], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, [CHILD_FLAG]: '1' } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`MCP bench server exited with ${code}`)));
  });
  const { url, key } = JSON.parse(line) as { url: string; key: string };
  return {
    url: url.replace(/\/+$/, ''),
    key,
    stop: () => new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** Child mode: the real runtime over the in-process sandbox, demo data, a bench key without a practical limit. */
async function serveChild(): Promise<void> {
  const { serve } = await import('h3');
  const { loadSettings } = await import('../../src/config/settings.ts');
  const { seedDemo } = await import('../../src/demo/seed-demo.ts');
  const { silentLogger } = await import('../../src/logging/logger.ts');
  const { inProcessEndpoints } = await import('../../src/providers/endpoints.ts');
  const { createRuntime } = await import('../../src/runtime.ts');
  const { createSandbox } = await import('../../src/sandbox/sandbox.ts');
  const dataDir = await mkdtemp(join(tmpdir(), 'siteline-bench-mcp-'));
  const credentialsDir = join(dataDir, 'sandbox-credentials');
  const sandbox = await createSandbox({ credentialsDir, env: {} });
  const settings = loadSettings({ DATA_DIR: dataDir, SITELINE_SANDBOX: 'off', LOG_LEVEL: 'silent', SITELINE_SECRET_KEY: randomBytes(32).toString('base64'), PUBLIC_URL: 'http://127.0.0.1' });
  const runtime = await createRuntime(settings, { logger: silentLogger(), skipDemo: true, endpoints: inProcessEndpoints(sandbox.fetch) });
  const { readSandboxCredentials } = await import('../../src/demo/sandbox-credentials.ts');
  const credentials = await readSandboxCredentials(credentialsDir);
  const demo = await seedDemo({ db: runtime.store.db, box: runtime.box, apiKeys: runtime.apiKeys, sites: sandbox.catalogue, credentials, dataDir });
  const bench = await runtime.apiKeys.create(demo.accountId, { name: 'bench-mcp', scopes: ['read', 'mcp:write'], rateLimitPerMinute: 1_000_000 });
  const server = serve(runtime.app, { port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false });
  await server.ready();
  process.stdout.write(`${JSON.stringify({ url: server.url, key: bench.key })}\n`);
  process.on('SIGTERM', () => void server.close(true).then(() => runtime.close()).then(() => process.exit(0)));
}

if (process.env[CHILD_FLAG] === '1') await serveChild();
