// Requests Node's HTTP parser refuses before the app sees them (a head over 16 KB, an unknown method, bytes that
// are not HTTP) still get a complete RFC 9457 problem response with a request id, sent over a raw socket.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorResponse } from '../../src/http/client-error.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createRuntime } from '../../src/runtime.ts';
import { serveRuntime, type RunningServer } from '../../src/server.ts';

let running: RunningServer;
let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'siteline-client-errors-'));
  const settings = loadSettings({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITELINE_SANDBOX: 'off', LOG_LEVEL: 'silent', SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
  running = await serveRuntime(await createRuntime(settings, { logger: silentLogger() }), settings);
  port = Number(new URL(running.url).port);
});
afterAll(async () => {
  await running.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Sends raw bytes and reads until the server closes the connection. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(bytes);
  });
}

function parse(response: string) {
  const [head = '', body = ''] = response.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
}

describe("errors from Node's HTTP parser", () => {
  it.each([
    ['a head over 16 KB', `GET /api/v1/projects/list HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'header_too_large'],
    ['an unknown method', 'BREW /api/v1/projects/list HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'malformed_request'],
    ['bytes that are not HTTP', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n', 400, 'malformed_request'],
    ['a broken header line', 'GET / HTTP/1.1\r\nHost x\r\n\r\n', 400, 'malformed_request'],
    ['a CONNECT (tunnel) request', 'CONNECT /api/v1/projects/list HTTP/1.1\r\nHost: x\r\n\r\n', 405, 'method_not_allowed'],
  ])('%s → %i problem JSON with a request id', async (_what, bytes, status, code) => {
    const res = parse(await rawExchange(bytes));
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    expect(res.body).toMatchObject({ status, code, type: `/api/v1/errors#${code}` });
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
    expect(String(res.body.request_id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(res.body)).not.toMatch(/HPE_|at .*\.(ts|js)|node:/);
  });

  it('a request that times out is a 408 problem', () => {
    const text = clientErrorResponse(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), 'req-id-12345678');
    expect(text.startsWith('HTTP/1.1 408 Request Timeout\r\n')).toBe(true);
    expect(JSON.parse(text.split('\r\n\r\n')[1]!)).toMatchObject({ status: 408, code: 'request_timeout', request_id: 'req-id-12345678' });
  });

  it('still serves ordinary requests on the same server', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});
