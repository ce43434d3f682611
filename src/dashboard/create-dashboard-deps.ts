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
  endpoints: ProviderEndpoints;
  operations: DashboardDeps['operations'];
  /** The demo sandbox runs: its OAuth client is the default. */
  demo: boolean;
}

export async function createDashboardDeps(options: CreateDashboardDepsOptions): Promise<DashboardDeps> {
  const client = await googleClientOf(options);
  const google = client && { flow: createGoogleWebFlow(client, googleWebEndpointsOf(options.endpoints)), clientId: client.clientId, clientSecret: client.clientSecret };
  return {
    web: options.web,
    box: options.box,
    providers: options.providers,
    signup: options.settings.SIGNUP,
    publicUrl: options.publicUrl,
    operations: options.operations,
    ...(google ? { google } : {}),
  };
}

async function googleClientOf(options: CreateDashboardDepsOptions): Promise<GoogleWebClientConfig | undefined> {
  const { GOOGLE_OAUTH_CLIENT_ID: clientId, GOOGLE_OAUTH_CLIENT_SECRET: clientSecret } = options.settings;
  if (clientId && clientSecret) return { clientId, clientSecret };
  if (clientId || clientSecret) throw new Error('Set both GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET, or neither.');
  if (!options.demo) return undefined;
  const file = join(options.settings.DATA_DIR, 'sandbox-credentials', 'oauth-client.json');
  const parsed = JSON.parse(await readFile(file, 'utf8')) as { client_id?: string; client_secret?: string };
  return parsed.client_id && parsed.client_secret ? { clientId: parsed.client_id, clientSecret: parsed.client_secret } : undefined;
}
