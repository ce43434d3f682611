// The embedded default's upstream: the provider sandbox (started in-process on SANDBOX_PORT, or an external one
// at SANDBOX_URL), its credential files, and the demo data seeded against it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { ApiKeyService } from '../auth/api-keys.ts';
import type { Settings } from '../config/settings.ts';
import type { Logger } from '../logging/logger.ts';
import { sandboxEndpoints, type ProviderEndpoints } from '../providers/endpoints.ts';
import { DEMO_SITES, type DemoSite } from '../sandbox/catalogue.ts';
import type { Database } from '../store/schema.ts';
import type { SecretBox } from '../store/secret-box.ts';
import { readSandboxCredentials } from './sandbox-credentials.ts';
import { seedDemo, type DemoCredentials, type SeededDemo } from './seed-demo.ts';

export interface DemoUpstream {
  endpoints: ProviderEndpoints;
  /** The sandbox's credential files: calls made with them (by any project) are routed to the sandbox. */
  credentials: DemoCredentials;
  sandboxUrl: string;
  seeded: SeededDemo;
  close(): Promise<void>;
}

export interface StartDemoUpstreamInput {
  settings: Settings;
  db: Kysely<Database>;
  box: SecretBox;
  apiKeys: ApiKeyService;
  logger: Logger;
}

export async function startDemoUpstream(input: StartDemoUpstreamInput): Promise<DemoUpstream> {
  const { settings } = input;
  const credentialsDir = join(settings.DATA_DIR, 'sandbox-credentials');
  const upstream = settings.SANDBOX_URL
    ? { url: settings.SANDBOX_URL.replace(/\/+$/, ''), close: async () => undefined }
    : await startInProcessSandbox(credentialsDir, settings.SANDBOX_PORT);
  try {
    const credentials = await readSandboxCredentials(credentialsDir, settings.SANDBOX_URL ? 30_000 : 0);
    const sites = await readSites(credentialsDir);
    const seeded = await seedDemo({ db: input.db, box: input.box, apiKeys: input.apiKeys, sites, credentials, dataDir: settings.DATA_DIR });
    input.logger.info({ sandbox: upstream.url, projects: seeded.projectKeys }, 'demo data ready');
    return { endpoints: sandboxEndpoints(`${upstream.url}/`), credentials, sandboxUrl: upstream.url, seeded, close: upstream.close };
  } catch (error) {
    await upstream.close();
    throw error;
  }
}

async function startInProcessSandbox(credentialsDir: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  // Loaded lazily: production starts never import the emulators.
  const { createSandbox } = await import('../sandbox/sandbox.ts');
  const sandbox = await createSandbox({ credentialsDir });
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
