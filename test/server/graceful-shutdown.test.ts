// SIGTERM semantics: stop() lets in-flight requests finish, then refuses new connections and closes the runtime.
import { randomBytes } from 'node:crypto';
import { Agent, get } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createRuntime } from '../../src/runtime.ts';
import { serveRuntime } from '../../src/server.ts';

describe('startServer().stop()', () => {
  it('drains in-flight requests before closing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'siteline-shutdown-'));
    const settings = loadSettings({ DATA_DIR: dataDir, PORT: '0', SITELINE_SANDBOX: 'off', LOG_LEVEL: 'silent', SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
    const runtime = await createRuntime(settings, { logger: silentLogger() });
    // The handler tells when it has started and finishes only when released, so stop() surely meets it in flight.
    const started = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    runtime.app.get('/__test/slow', async () => {
      started.resolve();
      await release.promise;
      return { finished: true };
    });
    const running = await serveRuntime(runtime, settings);
    const base = running.url.replace(/\/+$/, '');
    const inFlight = fetch(`${base}/__test/slow`);
    await started.promise;
    const stopped = running.stop();
    release.resolve();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true });
    await stopped;
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers in-flight requests with Connection: close so keep-alive clients stop sending to it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'siteline-shutdown-'));
    const settings = loadSettings({ DATA_DIR: dataDir, PORT: '0', SITELINE_SANDBOX: 'off', LOG_LEVEL: 'silent', SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
    const runtime = await createRuntime(settings, { logger: silentLogger() });
    let arrived!: () => void;
    const inside = new Promise<void>((resolve) => (arrived = resolve));
    let finish!: () => void;
    runtime.app.get('/__test/slow', async () => {
      arrived();
      await new Promise<void>((resolve) => (finish = resolve));
      return { finished: true };
    });
    const running = await serveRuntime(runtime, settings);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (path: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        get(new URL(path, running.url), { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        }).on('error', reject);
      });
    // Before the drain, the connection is kept alive.
    expect((await call('/healthz')).connection).toBe('keep-alive');
    const slow = call('/__test/slow');
    await inside;
    const stopped = running.stop();
    finish();
    expect(await slow).toEqual({ status: 200, connection: 'close' });
    await stopped;
    agent.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });
});
