// The embedded default's first minute: a demo account, one project per sandbox site wired to the sandbox's
// credentials, and a demo API key written to <DATA_DIR>/demo-api-key (0600). Idempotent: a second start reuses all.
import { randomBytes } from 'node:crypto';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { ApiKeyService } from '../auth/api-keys.ts';
import type { Source } from '../domain/sources.ts';
import { isAppError } from '../errors/app-error.ts';
import { createAccount, findAccountByEmail, setAccountPassword } from '../store/accounts-repository.ts';
import { connectSource, type SourceCredential } from '../store/data-sources-repository.ts';
import { createProject, getProjectByKey, grantProjectAccess } from '../store/projects-repository.ts';
import type { Database } from '../store/schema.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { DemoSite } from '../sandbox/catalogue.ts';

export const DEMO_EMAIL = 'demo@siteline.example';
export const DEMO_KEY_FILE = 'demo-api-key';
export const DEMO_PASSWORD_FILE = 'demo-password';

export interface DemoCredentials {
  serviceAccountJson: string;
  oauthClientJson: string;
  bingApiKey: string;
}

export interface SeedDemoInput {
  db: Kysely<Database>;
  box: SecretBox;
  apiKeys: ApiKeyService;
  sites: readonly DemoSite[];
  credentials: DemoCredentials;
  dataDir: string;
}

export interface SeededDemo {
  accountId: string;
  apiKey: string;
  keyFile: string;
  passwordFile: string;
  projectKeys: string[];
}

/**
 * Which credential each demo source uses: both Google grant types are exercised (service account for
 * analytics, a refresh token for engine1 on one site), and the smallest site has no engine2 connection so a
 * newcomer sees how a missing provider is reported.
 */
function demoConnections(site: DemoSite, index: number, c: DemoCredentials): { source: Source; input: { propertyId?: string; siteUrl?: string; credential: SourceCredential } }[] {
  const serviceAccount: SourceCredential = { kind: 'service_account', secret: c.serviceAccountJson };
  const refreshToken: SourceCredential = { kind: 'oauth_refresh_token', secret: c.oauthClientJson };
  const connections: ReturnType<typeof demoConnections> = [
    { source: 'analytics', input: { propertyId: site.analytics.propertyId, credential: serviceAccount } },
    { source: 'engine1', input: { siteUrl: site.engine1.siteUrl, credential: index === 1 ? refreshToken : serviceAccount } },
  ];
  if (site.size !== 'small') connections.push({ source: 'engine2', input: { siteUrl: site.engine2.siteUrl, credential: { kind: 'api_key', secret: c.bingApiKey } } });
  return connections;
}

export async function seedDemo(input: SeedDemoInput): Promise<SeededDemo> {
  const { db } = input;
  const account = await ensureDemoAccount(db, join(input.dataDir, DEMO_PASSWORD_FILE));
  const projectKeys: string[] = [];
  for (const [index, site] of input.sites.entries()) {
    const project = await ensureProject(db, site);
    await grantProjectAccess(db, account.id, project.id);
    // Re-connecting on every start keeps the stored credentials in step with the sandbox's credential files.
    for (const { source, input: connection } of demoConnections(site, index, input.credentials)) {
      await connectSource(db, input.box, project.id, source, connection);
    }
    projectKeys.push(project.key);
  }
  const keyFile = join(input.dataDir, DEMO_KEY_FILE);
  const apiKey = await reuseOrCreateKey(input.apiKeys, account.id, keyFile);
  return { accountId: account.id, apiKey, keyFile, passwordFile: join(input.dataDir, DEMO_PASSWORD_FILE), projectKeys };
}

/**
 * The demo password is random per data folder (printed at start, kept in <DATA_DIR>/demo-password, 0600). Replicas
 * starting together on one database and data folder (docker-compose) agree: the password file is created
 * exclusively, and whoever loses the race to create a row reads the winner's.
 */
async function ensureDemoAccount(db: Kysely<Database>, passwordFile: string) {
  const existing = await findAccountByEmail(db, DEMO_EMAIL);
  // A password file removed when the sandbox was turned off (retire-demo.ts): the account gets a fresh password.
  if (existing && !(await fileExists(passwordFile))) await setAccountPassword(db, existing.id, await createOnce(passwordFile, () => randomBytes(12).toString('base64url')));
  if (existing) return existing;
  const password = await createOnce(passwordFile, () => randomBytes(12).toString('base64url'));
  try {
    return await createAccount(db, { email: DEMO_EMAIL, name: 'Demo', password });
  } catch (error) {
    const raced = await findAccountByEmail(db, DEMO_EMAIL);
    if (raced) return raced;
    throw error;
  }
}

async function ensureProject(db: Kysely<Database>, site: DemoSite) {
  const existing = await getProjectByKey(db, site.key);
  if (existing) return existing;
  try {
    return await createProject(db, { key: site.key, name: site.name, domain: site.domain, timezone: site.timezone, currency: site.currency });
  } catch (error) {
    const raced = await getProjectByKey(db, site.key);
    if (raced) return raced;
    throw error;
  }
}

const fileExists = (file: string) => access(file).then(() => true, () => false);

/** The file's content, written by this call (exclusively, 0600) unless another process did so first. */
async function createOnce(file: string, make: () => string): Promise<string> {
  try {
    const value = make();
    await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
}

async function reuseOrCreateKey(apiKeys: ApiKeyService, accountId: string, keyFile: string): Promise<string> {
  const existing = (await readFile(keyFile, 'utf8').catch(() => '')).trim();
  if (existing) {
    try {
      const principal = await apiKeys.verify(existing);
      if (principal.accountId === accountId) return existing;
    } catch (error) {
      if (!isAppError(error)) throw error;
    }
  }
  const issued = await apiKeys.create(accountId, { name: 'demo', scopes: ['read', 'raw', 'mcp:write'] });
  await writeFile(keyFile, `${issued.key}\n`, { mode: 0o600 });
  return issued.key;
}
