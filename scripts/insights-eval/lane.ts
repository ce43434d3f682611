// One lane of the evaluation: an in-process sandbox and a Siteline runtime on the demo, seeded as `npm start`
// seeds them, with the limits lifted (the eval asks with force=1 hundreds of times) and helpers to plant events
// and call the REST endpoints. Lanes share nothing, so cases in different lanes cannot see each other's events.
import { createSandboxRuntime, type SandboxRuntime } from '../../test/helpers/sandbox-runtime.ts';
import type { PlantedEvent } from './cases.ts';
import { createLogger } from '../../src/logging/logger.ts';

const SANDBOX = 'http://sandbox.eval';
const UNLIMITED = { points: 1_000_000_000, windowSec: 1 };

export interface Lane {
  runtime: SandboxRuntime;
  /** GET a Siteline path with the eval's key; the parsed JSON, or an Error naming the status and problem. */
  get(path: string): Promise<unknown>;
  plant(events: readonly PlantedEvent[]): Promise<void>;
  clear(): Promise<void>;
  dispose(): Promise<void>;
}

export async function openLane(): Promise<Lane> {
  const runtime = await createSandboxRuntime({
    logger: createLogger({ level: 'error' }),
    shared: { limits: { request: { name: 'default', ...UNLIMITED }, burst: { name: 'burst', ...UNLIMITED }, force: { name: 'force', ...UNLIMITED } } },
    sandbox: { faults: { analyticsQuota: { tokensPerDay: 1e9, tokensPerHour: 1e9, tokensPerProjectPerHour: 1e9, concurrentRequests: 1000 } } },
  });
  const key = (await runtime.apiKeys.create(runtime.demo.accountId, { name: 'insights-eval', scopes: ['read'], rateLimitPerMinute: 1_000_000 })).key;

  async function control(method: 'POST' | 'DELETE', body?: unknown): Promise<void> {
    const init: RequestInit = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const res = await runtime.sandbox.fetch(new Request(`${SANDBOX}/__sandbox/scenarios`, init));
    if (!res.ok) throw new Error(`${method} /__sandbox/scenarios: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }

  return {
    runtime,
    async get(path) {
      const res = await runtime.request(path, { key });
      const text = await res.text();
      if (!res.ok) {
        let detail = text.slice(0, 200);
        try {
          const problem = JSON.parse(text) as { code?: string; detail?: string };
          detail = `${problem.code ?? ''} ${problem.detail ?? ''}`.trim();
        } catch {
          // not problem JSON: the text itself
        }
        throw new Error(`${res.status} ${detail}`);
      }
      return JSON.parse(text) as unknown;
    },
    plant: (events) => control('POST', { events }),
    clear: () => control('DELETE'),
    dispose: () => runtime.dispose(),
  };
}
