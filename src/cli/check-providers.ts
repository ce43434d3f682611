// Provider clients for CLI connection checks: real providers for real credentials; the sandbox's own credentials
// (when this data folder has them) are checked against an in-process sandbox, or SANDBOX_URL when set, and with
// the sandbox off they are refused rather than sent to Google or Bing.
import { join } from 'node:path';
import type { Settings } from '../config/settings.ts';
import { readSandboxCredentials } from '../demo/sandbox-credentials.ts';
import { inProcessEndpoints, PRODUCTION_ENDPOINTS, sandboxEndpoints } from '../providers/endpoints.ts';
import { createProviderClients, type ProviderClients, type SandboxRoute } from '../providers/provider-clients.ts';

export async function createCheckProviders(settings: Settings): Promise<ProviderClients> {
  return createProviderClients({ endpoints: PRODUCTION_ENDPOINTS, sandbox: await sandboxRoute(settings) });
}

async function sandboxRoute(settings: Settings): Promise<SandboxRoute | undefined> {
  const dir = join(settings.DATA_DIR, 'sandbox-credentials');
  const credentials = await readSandboxCredentials(dir).catch(() => undefined);
  if (!credentials) return undefined;
  if (settings.SITELINE_SANDBOX !== 'auto') return { credentials };
  if (settings.SANDBOX_URL) return { endpoints: sandboxEndpoints(`${new URL(settings.SANDBOX_URL).origin}/`), credentials };
  // Loaded lazily: production commands never import the emulators.
  const { createSandbox } = await import('../sandbox/sandbox.ts');
  const sandbox = await createSandbox({ credentialsDir: dir, env: {} });
  return { endpoints: inProcessEndpoints((request) => sandbox.fetch(request)), credentials };
}
