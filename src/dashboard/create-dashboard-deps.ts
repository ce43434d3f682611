// Builds the dashboard's dependencies at start. The Google OAuth client comes from GOOGLE_OAUTH_CLIENT_ID/SECRET;
// with the demo sandbox and no such settings, from the sandbox's credential files (its OAuth client doubles as
// the operator's web client), so "Connect Google" works on `npm start` with no setup.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebDeps } from '../account/web-deps.ts';
import type { Settings } from '../config/settings.ts';
import type { ProviderEndpoints } from '../providers/endpoints.ts';
import { googleWebEndpointsOf } from '../providers/google-web/google-web-endpoints.ts';
import { createGoogleWebFlow, type GoogleWebClientConfig } from '../providers/google-web/google-web-flow.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { DashboardDeps } from './dashboard-deps.ts';

export interface CreateDashboardDepsOptions {
  settings: Pick<Settings, 'SIGNUP' | 'GOOGLE_OAUTH_CLIENT_ID' | 'GOOGLE_OAUTH_CLIENT_SECRET' | 'DATA_DIR'>;
  publicUrl: string;
  web: WebDeps;
  box: SecretBox;
  providers: ProviderClients;
  /** Where an operator's own OAuth client (GOOGLE_OAUTH_CLIENT_ID/SECRET) is sent: the real Google. */
  endpoints: ProviderEndpoints;
  operations: DashboardDeps['operations'];
  /** The demo sandbox's endpoints when it runs: its OAuth client is then the default, and talks only to it. */
  sandboxEndpoints: ProviderEndpoints | undefined;
  /** The demo sandbox's Bing key file, named where the dashboard asks for a key. */
  demoBingKeyFile?: string | undefined;
}

export async function createDashboardDeps(options: CreateDashboardDepsOptions): Promise<DashboardDeps> {
  const found = await googleClientOf(options);
  const google = found && {
    flow: createGoogleWebFlow(found.client, googleWebEndpointsOf(found.endpoints)),
    clientId: found.client.clientId,
    clientSecret: found.client.clientSecret,
  };
  return {
    web: options.web,
    box: options.box,
    providers: options.providers,
    signup: options.settings.SIGNUP,
    publicUrl: options.publicUrl,
    operations: options.operations,
    ...(options.demoBingKeyFile ? { demo: { bingKeyFile: options.demoBingKeyFile } } : {}),
    ...(google ? { google } : {}),
  };
}

/** The OAuth client and the endpoints it belongs to (routing follows the credential, as for provider calls). */
async function googleClientOf(options: CreateDashboardDepsOptions): Promise<{ client: GoogleWebClientConfig; endpoints: ProviderEndpoints } | undefined> {
  const { GOOGLE_OAUTH_CLIENT_ID: clientId, GOOGLE_OAUTH_CLIENT_SECRET: clientSecret } = options.settings;
  if (clientId && clientSecret) return { client: { clientId, clientSecret }, endpoints: options.endpoints };
  if (clientId || clientSecret) throw new Error('Set both GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET, or neither.');
  if (!options.sandboxEndpoints) return undefined;
  const file = join(options.settings.DATA_DIR, 'sandbox-credentials', 'oauth-client.json');
  const parsed = JSON.parse(await readFile(file, 'utf8')) as { client_id?: string; client_secret?: string };
  if (!parsed.client_id || !parsed.client_secret) return undefined;
  return { client: { clientId: parsed.client_id, clientSecret: parsed.client_secret }, endpoints: options.sandboxEndpoints };
}
