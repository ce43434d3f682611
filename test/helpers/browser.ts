// Browser tests: the app served on a real port (PUBLIC_URL = that origin, so OAuth metadata, cookies and
// Origin checks are the production ones) and Debian's chromium driven by playwright-core with a fresh profile.
// Screenshots go to test-results/screenshots/ (gitignored).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from 'h3';
import { chromium, type BrowserContext } from 'playwright-core';
import { freePort } from './free-port.ts';
import { createTestRuntime, type TestRuntime, type TestRuntimeOptions } from './test-runtime.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../test-results/screenshots');
export const hasChromium = existsSync(CHROMIUM_PATH);

export interface ServedRuntime {
  rt: TestRuntime;
  origin: string;
  close(): Promise<void>;
}

export async function serveTestRuntime(options: TestRuntimeOptions = {}): Promise<ServedRuntime> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const rt = await createTestRuntime({ ...options, env: { PUBLIC_URL: origin, ...options.env } });
  const server = serve(rt.app, { port, hostname: '127.0.0.1', silent: true, gracefulShutdown: false });
  await server.ready();
  return {
    rt,
    origin,
    async close() {
      await server.close(true);
      await rt.dispose();
    },
  };
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** `bypassCSP` lets a test inject axe-core into pages whose CSP allows no script at all. */
export async function launchBrowser(options: { bypassCSP?: boolean } = {}): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'siteline-chromium-'));
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1100, height: 900 },
    bypassCSP: options.bypassCSP === true,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
