// A test runtime whose providers are an in-process sandbox, with the demo account and projects seeded as `npm start`
// seeds them (the sandbox's own credential files, both Google grant types, tiny-saas without engine2).
import { join } from 'node:path';
import { readSandboxCredentials } from '../../src/demo/sandbox-credentials.ts';
import { sandboxEndpoints } from '../../src/providers/endpoints.ts';
import { listen } from '../../src/sandbox/listen.ts';
import { seedDemo, type SeededDemo } from '../../src/demo/seed-demo.ts';
import { createSandbox, type CreateSandboxOptions, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { createTestRuntime, type TestRuntime, type TestRuntimeOptions } from './test-runtime.ts';

export interface SandboxRuntime extends Omit<TestRuntime, 'demo'> {
  sandbox: Sandbox;
  demo: SeededDemo;
  /** GET with the demo key; returns status and parsed JSON. */
  get(path: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }>;
}

export interface SandboxRuntimeOptions extends TestRuntimeOptions {
  sandbox?: CreateSandboxOptions;
  /** Sits between the app and the sandbox, e.g. to rewrite one provider answer into a shape the demo data never has. */
  intercept?: (request: Request, sandboxFetch: (request: Request) => Promise<Response>) => Promise<Response>;
  /** Reach the sandbox over a real port, as the demo does. */
  overHttp?: boolean;
}

export async function createSandboxRuntime(options: SandboxRuntimeOptions = {}): Promise<SandboxRuntime> {
  let sandbox: Sandbox | undefined;
  const sandboxFetch = (request: Request) => sandbox!.fetch(request);
  const handler = options.intercept ? (request: Request) => options.intercept!(request, sandboxFetch) : sandboxFetch;
  const listening = options.overHttp ? await listen(handler, { port: 0 }) : undefined;
  const upstream = listening ? { endpoints: sandboxEndpoints(listening.url) } : { upstream: handler };
  const created = await createTestRuntime({ ...options, ...upstream });
  const rt = listening ? { ...created, dispose: () => listening.close().then(() => created.dispose()) } : created;
  const credentialsDir = join(rt.dataDir, 'sandbox-credentials');
  sandbox = await createSandbox({ credentialsDir, env: {}, ...options.sandbox });
  const credentials = await readSandboxCredentials(credentialsDir);
  const demo = await seedDemo({ db: rt.store.db, box: rt.box, apiKeys: rt.apiKeys, sites: sandbox.catalogue, credentials, dataDir: rt.dataDir });
  // `npm start` probes each demo connection once (they are then OK); probing here would add provider calls that tests
  // count, so the sources are marked as that probe leaves them.
  await rt.store.db.updateTable('data_sources').set({ status: 'ok' }).where('status', '=', 'pending').execute();
  return Object.assign(rt as Omit<TestRuntime, 'demo'>, {
    sandbox,
    demo,
    async get(path: string, init: RequestInit = {}) {
      const res = await rt.request(path, { ...init, key: demo.apiKey });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // CSV and other text bodies stay text
      }
      return { status: res.status, body, headers: res.headers };
    },
  });
}
