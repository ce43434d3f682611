// What the dashboard pages need, created once by the runtime: the account pages' pieces (sessions, CSRF, keys),
// the credential box, the provider clients (key checks, site lists), the Google web flow when configured, and
// the stored operations every number on the pages is read through.
import type { WebDeps } from '../account/web-deps.ts';
import type { OperationRunner } from '../operations/execute.ts';
import type { GoogleWebFlow } from '../providers/google-web/google-web-flow.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import type { SecretBox } from '../store/secret-box.ts';

export type SignupMode = 'closed' | 'invite' | 'open';

export interface DashboardDeps {
  web: WebDeps;
  box: SecretBox;
  providers: ProviderClients;
  signup: SignupMode;
  publicUrl: string;
  /** Set while the demo sandbox runs: where its Bing key is, for the pages that ask for one. */
  demo?: { bingKeyFile: string };
  /** "Connect Google" (absent when no OAuth client is configured). */
  google?: { flow: GoogleWebFlow; clientId: string; clientSecret: string };
  operations: OperationRunner;
}
