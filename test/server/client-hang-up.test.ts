// A client that hangs up in the middle of its request body is not a server failure: one info line, no stack, no
// error-level log (a flood of those would bury real failures).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../../src/config/settings.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { createRuntime } from '../../src/runtime.ts';
import { serveRuntime, type RunningServer } from '../../src/server.ts';
import { createAccountWithKey } from '../helpers/test-runtime.ts';

const lines: Record<string, unknown>[] = [];
let running: RunningServer;
let dataDir: string;
let key: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'siteline-hangup-'));
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const settings = loadSettings({ DATA_DIR: dataDir, PORT: '0', SITELINE_SANDBOX: 'off', LOG_LEVEL: 'info', SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
  const runtime = await createRuntime(settings, { logger: createLogger({ level: 'info', destination }) });
  ({ key } = await createAccountWithKey(runtime, { email: 'hangup@example.com', projects: [] }));
  running = await serveRuntime(runtime, settings);
});
afterAll(async () => {
  await running.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a client hanging up mid-request', () => {
  it.each(['/api/mcp', '/api/graphql'])('on %s is logged once at info, never at error', async (path) => {
    const { port } = new URL(running.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 5000\r\n\r\n`;
    socket.write(`${head}{"jsonrpc":"2.0","id":1,"method":"tools/`);
    // The server has the head and part of the body; then the client is gone.
    await vi.waitFor(() => expect(socket.bytesWritten).toBeGreaterThan(head.length));
    socket.destroy();
    await vi.waitFor(() => expect(lines.some((l) => l.msg === 'client closed the connection before the answer' && l.path === path)).toBe(true), { timeout: 10_000 });
    expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
  });
});
