// The embedded default as `npm start` runs it, on free ports: SITELINE_SANDBOX=auto (the sandbox in-process on a
// port of its own, the demo seeded), no PUBLIC_URL, the API listening on 127.0.0.1. The real providers are an
// offline network: every call to them fails as an unreachable host does, and is recorded, so a credential routed
// to the wrong side shows up as a call here (and as missing data).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serve } from 'h3';
import type { SeededDemo } from '../../src/demo/seed-demo.ts';
import { PRODUCTION_ENDPOINTS, type ProviderEndpoints } from '../../src/providers/endpoints.ts';
import { freePort } from './free-port.ts';
import { createTestRuntime, type TestRuntime } from './test-runtime.ts';

export interface OfflineProviders {
  endpoints: ProviderEndpoints;
  /** Every URL a call to a real provider (Google, Bing) went to. */
  calls: string[];
}

export function offlineRealProviders(): OfflineProviders {
  const calls: string[] = [];
  const offline = (async (input: RequestInfo | URL) => {
    calls.push(input instanceof Request ? input.url : String(input));
    throw new TypeError('fetch failed');
  }) as typeof fetch;
  return { endpoints: { ...PRODUCTION_ENDPOINTS, fetch: offline }, calls };
}

export interface DemoServer {
  rt: TestRuntime;
  seeded: SeededDemo;
  /** The same server at both loopback names: http://127.0.0.1:<port> and http://localhost:<port>. */
  origins: { ip: string; localhost: string };
  real: OfflineProviders;
  /** The sandbox's Bing key, from the file the start banner names. */
  bingApiKey(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The app and its sandbox see one fixed instant (a few minutes ahead of the wall clock, so the sandbox still accepts
 * the service account's token grants made at wall-clock time): the demo data moves at day boundaries and at noon
 * Pacific, and a test comparing two reads taken seconds apart must not straddle one.
 */
const CLOCK_LEAD_MS = 10 * 60_000;

/** `listen: false` builds the same runtime without a port (in-process `rt.app.request()` only). */
export async function serveDemo(options: { listen?: boolean } = {}): Promise<DemoServer> {
  const port = await freePort();
  const real = offlineRealProviders();
  const instant = new Date(Date.now() + CLOCK_LEAD_MS);
  const rt = await createTestRuntime({
    skipDemo: false,
    clock: () => instant,
    endpoints: real.endpoints,
    providerResilience: { backoffInitialMs: 1, backoffMaxMs: 5 },
    env: { SITELINE_SANDBOX: 'auto', SANDBOX_PORT: '0', HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: '' },
  });
  const server = options.listen === false ? undefined : serve(rt.app, { port, hostname: '127.0.0.1', silent: true, gracefulShutdown: false });
  await server?.ready();
  return {
    rt,
    seeded: rt.demo!.seeded,
    origins: { ip: `http://127.0.0.1:${port}`, localhost: `http://localhost:${port}` },
    real,
    bingApiKey: async () => (await readFile(join(rt.dataDir, 'sandbox-credentials', 'bing-api-key.txt'), 'utf8')).trim(),
    async close() {
      await server?.close(true);
      await rt.dispose();
    },
  };
}
