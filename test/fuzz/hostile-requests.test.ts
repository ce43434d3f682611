// A seeded hostile run over every operation of the OpenAPI document (fast-check): hostile values for every path
// and query parameter and every request body, hostile headers, plus raw sockets for oversize heads, unknown methods
// and bytes that are not HTTP. Every answer must be below 500, every error RFC 9457 problem JSON carrying the
// request id, and no body may carry a stack, a file path, SQL, a secret or an upstream URL.
// Reproduce a failure with the seed and path fast-check prints; FUZZ_SEED explores other seeds.
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/runtime.ts';
import { serveRuntime, type RunningServer } from '../../src/server.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { RELAXED_LIMITS } from '../mcp/mcp-clients.ts';
import { hostileBody, hostileString, parameterValue } from './hostile-values.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 14);
const RUNS_PER_OPERATION = 110;
const SOCKET_RUNS = 150;

interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema?: { enum?: unknown[]; default?: unknown };
  example?: unknown;
}
interface Operation {
  method: 'get' | 'post';
  path: string;
  parameters: Parameter[];
  bodyExample?: Record<string, unknown>;
}

let rt: SandboxRuntime;
let operations: Operation[];
let forbidden: (string | RegExp)[];

beforeAll(async () => {
  rt = await createSandboxRuntime({ shared: RELAXED_LIMITS });
  const doc = (await (await rt.request('/api/v1/openapi.json')).json()) as { paths: Record<string, Record<string, any>> };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    (['get', 'post'] as const)
      .filter((method) => item[method])
      .map((method) => ({
        method,
        path: `/api/v1${path}`,
        parameters: (item[method].parameters ?? []) as Parameter[],
        bodyExample: item[method].requestBody?.content?.['application/json']?.example,
      })),
  );
  forbidden = [
    /\n\s+at /,
    /\bat [^\s]+ \([^)]*:\d+:\d+\)/,
    /\.(ts|js|mjs|cjs):\d+/,
    process.cwd(),
    'node_modules',
    /SQLITE_|sqlite_master|syntax error at or near|relation "[^"]+" does not exist|duplicate key value/,
    rt.demo.apiKey,
    rt.sandbox.credentials.bingApiKey,
    'PRIVATE KEY',
    'ya29.',
    'sandbox.invalid',
    'googleapis.com',
    'ssl.bing.com',
  ];
}, 60_000);
afterAll(() => rt.dispose());

function assertSafeAnswer(status: number, headers: Headers | Record<string, string | undefined>, text: string, what: string): void {
  const header = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]) ?? undefined;
  expect(status, `${what} → ${status} ${text.slice(0, 300)}`).toBeLessThan(500);
  for (const marker of forbidden) {
    if (typeof marker === 'string') expect(text.includes(marker), `${what}: body carries ${marker}`).toBe(false);
    else expect(text, what).not.toMatch(marker);
  }
  if (status < 400) return;
  expect(header('content-type'), what).toBe('application/problem+json; charset=utf-8');
  if (what.startsWith('HEAD ')) return; // a HEAD answer has the headers of a GET and no body
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.status, what).toBe(status);
  expect(body.code, what).toBeTypeOf('string');
  expect(body.type, what).toBe(`/api/v1/errors#${String(body.code)}`);
  expect(body.request_id, what).toBe(header('x-request-id'));
}

/** One hostile request for an operation: path parameters, some query parameters, headers and (POST) a body. */
function requestFor(op: Operation) {
  const path = fc.record(Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, parameterValue(p.schema, p.example)])));
  const documented = op.parameters.filter((p) => p.in === 'query').map((p) => parameterValue(p.schema, p.example).map((value) => [p.name, value] as const));
  const unknown = fc.oneof(hostileString.map((value) => ['unknown_param', value] as const), fc.tuple(hostileString, hostileString));
  const query = fc.array(documented.length ? fc.oneof({ weight: 6, arbitrary: fc.oneof(...documented) }, { weight: 1, arbitrary: unknown }) : unknown, {
    maxLength: documented.length ? 4 : 1,
  });
  const headers = fc.record(
    {
      accept: fc.constantFrom('text/csv', 'application/json', '*/*', 'text/html', '\u0000'),
      'x-request-id': fc.oneof(hostileString, fc.constant('client-chosen-id-42')),
      'content-type': fc.oneof({ weight: 5, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', '') }),
    },
    { requiredKeys: ['content-type'] },
  );
  const body = op.method === 'post' ? hostileBody(op.bodyExample) : fc.constant(undefined);
  const method = fc.oneof({ weight: 8, arbitrary: fc.constant(op.method.toUpperCase()) }, { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'GET', 'POST', 'HEAD', 'OPTIONS') });
  return fc.record({ path, query, headers, body, method });
}

function urlOf(op: Operation, path: Record<string, string>, query: readonly (readonly [string, string])[]): string {
  const filled = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(path[name] ?? ''));
  const search = new URLSearchParams(query.map(([k, v]) => [k, v]));
  return search.size ? `${filled}?${search}` : filled;
}

function safeHeaders(headers: Record<string, string>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    try {
      out.set(name, value);
    } catch {
      // A value no HTTP client could send (control characters) is left out, as fetch would refuse it.
    }
  }
  return out;
}

describe('hostile requests over every operation of the OpenAPI document', () => {
  it('covers every operation, and the raw proxies', () => {
    expect(operations.length).toBeGreaterThanOrEqual(18);
    expect(operations.filter((op) => op.method === 'post').length).toBe(3);
  });

  it('never answers 5xx, always problem JSON with the request id, never a leak', async () => {
    const statuses = new Map<number, number>();
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async ({ path, query, headers, body, method }) => {
          const url = urlOf(op, path, query);
          const init: RequestInit & { key?: string } = { method, key: rt.demo.apiKey, headers: safeHeaders(headers) };
          if (body !== undefined && method !== 'GET' && method !== 'HEAD') init.body = body;
          const res = await rt.request(url, init);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          assertSafeAnswer(res.status, res.headers, await res.text(), `${method} ${url}`);
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    }
    // The run reached past validation too: successful answers and every kind of refusal.
    for (const status of [200, 400, 404, 405]) expect(statuses.get(status), `status ${status}`).toBeGreaterThan(20);
  }, 600_000);
});

describe('hostile bytes on a raw socket', () => {
  let running: RunningServer;
  let port: number;
  beforeAll(async () => {
    running = await serveRuntime(rt as unknown as Runtime, { ...rt.settings, PORT: 0, HOST: '127.0.0.1' });
    port = Number(new URL(running.url).port);
  });
  // The runtime is disposed by the suite's afterAll; only the listener is closed here.
  afterAll(() => running.stop().catch(() => undefined));

  function exchange(bytes: Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(error)));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.end(bytes);
    });
  }

  const method = fc.oneof(fc.constantFrom('BREW', 'GETT', 'G ET', 'get', '', 'PR\u0000I', 'CONNECT'), fc.stringMatching(/^[A-Z]{1,12}$/));
  const oversizeHead = fc.integer({ min: 17_000, max: 80_000 }).map((n) => `GET /api/v1/projects/list HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(n)}\r\n\r\n`);
  const badMethod = method.map((m) => `${m} /api/v1/projects/list HTTP/1.1\r\nHost: x\r\n\r\n`);
  const garbage = fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.concat([Buffer.from(bytes), Buffer.from('\r\n\r\n')]).toString('latin1'));
  const brokenHeaders = fc.tuple(hostileString, hostileString).map(([name, value]) => `GET /healthz HTTP/1.1\r\nHost: x\r\n${name}: ${value}\r\n\r\n`);

  it('answers every request it answers with a complete response, problem JSON for every error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(oversizeHead, badMethod, garbage, brokenHeaders), async (request) => {
        const answer = await exchange(Buffer.from(request, 'latin1'));
        const [head = '', ...rest] = answer.split('\r\n\r\n');
        const [statusLine = '', ...lines] = head.split('\r\n');
        const status = Number(statusLine.split(' ')[1]);
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        let text = rest.join('\r\n\r\n');
        if (headers['transfer-encoding'] === 'chunked') text = dechunk(text);
        assertSafeAnswer(status, headers, text, JSON.stringify(request.slice(0, 80)));
      }),
      { seed: SEED, numRuns: SOCKET_RUNS, endOnFailure: true },
    );
  }, 300_000);
});

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!(size > 0)) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}
