// A start that cannot listen says which port is taken and which setting moves it, then exits 1 without a stack.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.ts';
import { startFailureMessage } from '../../src/start-failure.ts';

let busy: Server;
let busyPort: number;
let dataDir: string;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
  dataDir = await mkdtemp(join(tmpdir(), 'siteline-start-'));
});
afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['src/main.ts'], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? (child.exitCode ?? 1) : 0, stderr });
    });
  });
}

describe('a start that cannot listen', () => {
  it('names the busy port and the setting, exits 1, prints no stack', async () => {
    const { code, stderr } = await start({ PORT: String(busyPort), DATA_DIR: dataDir, SITELINE_SANDBOX: 'off', LOG_LEVEL: 'silent', SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`Cannot listen on 127.0.0.1:${busyPort}: the port is already in use (is another Siteline still running?). Stop that process or set PORT to a free port.`);
  });

  it('names SANDBOX_PORT or METRICS_PORT when that is the busy one, and leaves other errors alone', () => {
    const settings = loadSettings({ SANDBOX_PORT: '4011', METRICS_PORT: '9100' });
    expect(startFailureMessage({ code: 'EADDRINUSE', port: 4011, address: '127.0.0.1' }, settings)).toContain('set SANDBOX_PORT');
    expect(startFailureMessage({ code: 'EADDRINUSE', port: 9100, address: '127.0.0.1' }, settings)).toContain('set METRICS_PORT');
    expect(startFailureMessage({ code: 'EACCES', port: 80, address: '0.0.0.0' }, settings)).toBe('Cannot listen on 0.0.0.0:80: not allowed (ports below 1024 need extra privileges). Set PORT to a port above 1023.');
    expect(startFailureMessage(new Error('boom'), settings)).toBeUndefined();
  });
});
