// The embedded default's upstream: the provider sandbox (started in-process on SANDBOX_PORT, or an external one
// at SANDBOX_URL), its credential files, and the demo data seeded against it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { ApiKeyService } from '../auth/api-keys.ts';
import type { Settings } from '../config/settings.ts';
import type { Logger } from '../logging/logger.ts';
import { sandboxEndpoints, type ProviderEndpoints } from '../providers/endpoints.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import { DEMO_SITES, type DemoSite } from '../sandbox/catalogue.ts';
import type { Database } from '../store/schema.ts';
import type { SecretBox } from '../store/secret-box.ts';
import { readSandboxCredentials } from './sandbox-credentials.ts';
import { seedDemo, type DemoCredentials, type SeededDemo } from './seed-demo.ts';

/** The sandbox the embedded default runs on: where it answers and the credentials it issued. */
export interface DemoSandbox {
  endpoints: ProviderEndpoints;
  /** The sandbox's credential files: calls made with them (by any project) are routed to the sandbox. */
  credentials: DemoCredentials;
  sandboxUrl: string;
  /** The sandbox's Bing key (what a newcomer pastes into the dashboard). */
  bingKeyFile: string;
  sites: readonly DemoSite[];
  close(): Promise<void>;
}

export interface DemoUpstream extends DemoSandbox {
  seeded: SeededDemo;
}

/** `clock`: the app's, so the in-process sandbox's days and data agree with the app's (a test may fix it). */
export async function startDemoSandbox(input: { settings: Settings; clock: () => Date }): Promise<DemoSandbox> {
  const { settings } = input;
  const credentialsDir = join(settings.DATA_DIR, 'sandbox-credentials');
  const upstream = settings.SANDBOX_URL
    ? { url: settings.SANDBOX_URL.replace(/\/+$/, ''), close: async () => undefined }
    : await startInProcessSandbox(credentialsDir, settings.SANDBOX_PORT, input.clock);
  try {
    const credentials = await readSandboxCredentials(credentialsDir, settings.SANDBOX_URL ? 30_000 : 0);
    const sites = await readSites(credentialsDir);
    return { endpoints: sandboxEndpoints(`${upstream.url}/`), credentials, sandboxUrl: upstream.url, bingKeyFile: join(credentialsDir, 'bing-api-key.txt'), sites, close: upstream.close };
  } catch (error) {
    await upstream.close();
    throw error;
  }
}

export interface SeedDemoSandboxInput {
  settings: Settings;
  db: Kysely<Database>;
  box: SecretBox;
  apiKeys: ApiKeyService;
  logger: Logger;
  /** The app's provider clients (routing the sandbox's credentials to it): new demo connections are probed with them. */
  providers: ProviderClients;
}

/** Seeds the demo account and projects on the running sandbox (after the provider clients exist, to probe them). */
export async function seedDemoSandbox(sandbox: DemoSandbox, input: SeedDemoSandboxInput): Promise<DemoUpstream> {
  const { credentials, sites } = sandbox;
  const seeded = await seedDemo({ db: input.db, box: input.box, apiKeys: input.apiKeys, sites, credentials, dataDir: input.settings.DATA_DIR, providers: input.providers });
  input.logger.info({ sandbox: sandbox.sandboxUrl, projects: seeded.projectKeys }, 'demo data ready');
  return { ...sandbox, seeded };
}

async function startInProcessSandbox(credentialsDir: string, port: number, now: () => Date): Promise<{ url: string; close(): Promise<void> }> {
  // Loaded lazily: production starts never import the emulators.
  const { createSandbox } = await import('../sandbox/sandbox.ts');
  const sandbox = await createSandbox({ credentialsDir, now });
  try {
    const listener = await sandbox.listen({ port, host: '127.0.0.1' });
    return { url: listener.url.replace(/\/+$/, ''), close: () => listener.close() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`SANDBOX_PORT ${port} is in use. Set SANDBOX_PORT to a free port, or SANDBOX_URL to use a sandbox that already runs.`, { cause: error });
    }
    throw error;
  }
}

async function readSites(dir: string): Promise<readonly DemoSite[]> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, 'properties.json'), 'utf8')) as unknown;
    const sites = Array.isArray(parsed) ? parsed : (parsed as { sites?: unknown }).sites;
    return Array.isArray(sites) && sites.length > 0 ? (sites as DemoSite[]) : DEMO_SITES;
  } catch {
    return DEMO_SITES;
  }
}
