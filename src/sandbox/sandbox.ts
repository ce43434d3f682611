// The sandbox's public API: createSandbox() wires credentials, catalogue, faults, quota and stats into one
// fetch handler that runs in-process or listens on a port; sandboxFetch adapts it for gaxios.
import { loadOrCreateCredentials, type SandboxCredentials } from './auth/credentials.ts';
import { DEMO_SITES, type DemoSite } from './catalogue.ts';
import { faultsFromEnv, type FaultPatch, type FaultSettings } from './control/fault-settings.ts';
import { createFaultController } from './control/faults.ts';
import { createGaQuota } from './control/ga-quota.ts';
import { createStatsCounter, type SandboxStats } from './control/stats.ts';
import { createRequestHandler } from './handle-request.ts';
import { listen, type Listening } from './listen.ts';
import { createScenarioStore } from './scenarios/scenario-store.ts';
import type { ScenarioEvent, StoredEvent } from './scenarios/scenario-events.ts';

export type { DemoSite, SiteSize, SiteKind } from './catalogue.ts';
export { DEMO_SITES } from './catalogue.ts';
export type { SandboxCredentials, ServiceAccountKey, OAuthClientCredentials } from './auth/credentials.ts';
export type { FaultSettings, FaultPatch, ProviderFaults, GaQuotaLimits } from './control/fault-settings.ts';
export type { SandboxStats } from './control/stats.ts';
export type { ScenarioEvent, StoredEvent } from './scenarios/scenario-events.ts';

export const DEFAULT_CREDENTIALS_DIR = './data/sandbox-credentials';

export interface CreateSandboxOptions {
  /** The clock the data is anchored to and tokens expire by (default: the real time). */
  now?: () => Date;
  /** Where credentials are loaded from / written to (default SANDBOX_CREDENTIALS_DIR or ./data/sandbox-credentials); null keeps them in memory. */
  credentialsDir?: string | null;
  /** Initial fault switches (applied after the env vars). */
  faults?: FaultPatch;
  /** Environment to read SANDBOX_* switches from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Sites to serve (default: the demo catalogue). */
  catalogue?: readonly DemoSite[];
}

export interface Sandbox {
  fetch(request: Request): Promise<Response>;
  credentials: SandboxCredentials;
  catalogue: DemoSite[];
  stats(): SandboxStats;
  resetStats(): void;
  setFaults(faults: FaultPatch): void;
  faults(): FaultSettings;
  clearFaults(): void;
  /** The planted events (sandbox scenarios) the data currently carries. */
  scenarios(): StoredEvent[];
  /** Plants events (all or none); throws on an event the sandbox cannot plant. */
  addScenarios(events: readonly ScenarioEvent[]): StoredEvent[];
  clearScenarios(): void;
  listen(opts: { port: number; host?: string }): Promise<Listening>;
}

export async function createSandbox(options: CreateSandboxOptions = {}): Promise<Sandbox> {
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const catalogue = [...(options.catalogue ?? DEMO_SITES)];
  const dir = options.credentialsDir === null ? undefined : (options.credentialsDir ?? env.SANDBOX_CREDENTIALS_DIR ?? DEFAULT_CREDENTIALS_DIR);
  const credentials = await loadOrCreateCredentials(dir, catalogue);
  const faults = createFaultController(faultsFromEnv(env));
  if (options.faults) faults.set(options.faults);
  const stats = createStatsCounter();
  const quota = createGaQuota(() => faults.settings().analyticsQuota);
  const scenarios = createScenarioStore(() => catalogue);
  const handler = createRequestHandler({ catalogue, credentials, faults, stats, scenarios, quota, now });
  return {
    fetch: handler,
    credentials,
    catalogue,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    setFaults: (patch) => faults.set(patch),
    faults: () => faults.settings(),
    clearFaults: () => faults.clear(),
    scenarios: () => scenarios.list(),
    addScenarios(events) {
      const added = scenarios.add(events);
      if ('issues' in added) throw new Error(`sandbox: cannot plant ${added.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
      return added.events;
    },
    clearScenarios: () => scenarios.clear(),
    listen: (opts) => listen(handler, opts),
  };
}

export type SandboxFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch-compatible function for gaxios `fetchImplementation` (API clients and auth transporters): the
 * requests keep their real hosts (https://analyticsdata.googleapis.com/..., https://oauth2.googleapis.com/token)
 * and the sandbox routes them by path.
 */
export function sandboxFetch(sandbox: Pick<Sandbox, 'fetch'>): SandboxFetch {
  return (input, init) => sandbox.fetch(input instanceof Request && init === undefined ? input : new Request(input, init));
}
