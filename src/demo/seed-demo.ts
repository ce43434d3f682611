// The embedded default's first minute: a demo account, one project per sandbox site wired to the sandbox's
// credentials (each new or changed connection probed once, as any connection is, so it shows OK only after a call
// with it succeeded), and a demo API key written to <DATA_DIR>/demo-api-key (0600). Idempotent: a second start
// reuses all, and replicas sharing one database agree whatever their own data folders hold.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { ApiKeyService } from '../auth/api-keys.ts';
import type { Source } from '../domain/sources.ts';
import { isAppError } from '../errors/app-error.ts';
import { createAccount, findAccountByEmail, setAccountPassword, verifyAccountPassword } from '../store/accounts-repository.ts';
import { appendAudit, listAudit } from '../store/audit-repository.ts';
import { connectDataSource } from '../connections/connect-data-source.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import { listSources, parsePropertyId, parseSiteUrl, readSourceCredential, setPropertySettings, type SourceCredential } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { createProject, getProjectByKey, grantProjectAccess } from '../store/projects-repository.ts';
import type { Database } from '../store/schema.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { DemoSite } from '../sandbox/catalogue.ts';
import { AT_START } from '../writes/actor.ts';
import { ensureDemoFunnels } from './demo-funnels.ts';

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
  /** Probes new or changed connections; without them (tests that count provider calls) they stay `pending`. */
  providers?: ProviderClients;
}

/**
 * Where the demo password is: known to this instance (it created the account, or its data folder holds the
 * password that works), or only to the instance that created the account (`seededBy`, when recorded).
 */
export type DemoPassword = { known: true; password: string; file: string } | { known: false; seededBy: string | undefined };

export interface SeededDemo {
  accountId: string;
  apiKey: string;
  keyFile: string;
  password: DemoPassword;
  projectKeys: string[];
}

const SEEDED_ACTION = 'demo.seeded';
/** Written by retire-demo.ts when the sandbox is turned off on a data folder with the demo. */
export const DEMO_RETIRED_ACTION = 'demo.retired';

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
  const { account, password } = await ensureDemoAccount(db, join(input.dataDir, DEMO_PASSWORD_FILE));
  const projectKeys: string[] = [];
  for (const [index, site] of input.sites.entries()) {
    const project = await ensureProject(db, site);
    await grantProjectAccess(db, account.id, project.id);
    // Every start keeps the stored credentials in step with the sandbox's credential files.
    for (const { source, input: connection } of demoConnections(site, index, input.credentials)) {
      await keepConnected(input, project, source, connection);
    }
    // The sandbox property reports the site's zone and currency; storing them now (as a connection check would)
    // spares the first report a catalogue write, which would empty every instance's answer cache.
    await setPropertySettings(db, project.id, 'analytics', { timeZone: site.timezone, currencyCode: site.currency });
    await ensureDemoFunnels(db, project, site.kind, account.id);
    projectKeys.push(project.key);
  }
  const keyFile = join(input.dataDir, DEMO_KEY_FILE);
  const apiKey = await reuseOrCreateKey(input.apiKeys, account.id, keyFile);
  return { accountId: account.id, apiKey, keyFile, password, projectKeys };
}

type DemoConnection = ReturnType<typeof demoConnections>[number];

/** An unchanged connection keeps its row and status; a new or changed one is stored and probed (like any connect). */
async function keepConnected(input: SeedDemoInput, project: ProjectRecord, source: Source, connection: DemoConnection['input']): Promise<void> {
  const stored = (await listSources(input.db, project.id)).find((s) => s.source === source);
  const target = source === 'analytics' ? stored?.propertyId === parsePropertyId(connection.propertyId ?? '') : stored?.siteUrl === parseSiteUrl(source, connection.siteUrl ?? '');
  if (stored && target && stored.credentialKind === connection.credential.kind) {
    const secret = await readSourceCredential(input.db, input.box, project.id, source).catch(() => undefined);
    if (secret?.secret === connection.credential.secret) return;
  }
  const deps = { db: input.db, clock: () => new Date(), box: input.box, providers: input.providers };
  await connectDataSource(deps, AT_START, project, source, { ...connection, check: input.providers !== undefined, force: true });
}

/**
 * The demo password is random, set by whichever instance creates the account, and written to that instance's
 * <DATA_DIR>/demo-password (0600) only once the account row is really its own: replicas racing on one database
 * never print a password that does not work. Others use their file only when it verifies against the database.
 */
async function ensureDemoAccount(db: Kysely<Database>, passwordFile: string) {
  const existing = await findAccountByEmail(db, DEMO_EMAIL);
  if (existing && (await wasRetired(db))) return { account: existing, password: await reissuePassword(db, existing.id, passwordFile) };
  if (existing) return { account: existing, password: await passwordOfExisting(db, passwordFile) };
  const password = randomBytes(12).toString('base64url');
  try {
    const account = await createAccount(db, { email: DEMO_EMAIL, name: 'Demo', password });
    return { account, password: await recordPassword(db, account.id, password, passwordFile) };
  } catch (error) {
    const raced = await findAccountByEmail(db, DEMO_EMAIL);
    if (raced) return { account: raced, password: await passwordOfExisting(db, passwordFile) };
    throw error;
  }
}

async function passwordOfExisting(db: Kysely<Database>, passwordFile: string): Promise<DemoPassword> {
  const local = (await readFile(passwordFile, 'utf8').catch(() => '')).trim();
  if (local && (await verifyAccountPassword(db, DEMO_EMAIL, local))) return { known: true, password: local, file: passwordFile };
  const [seeded] = await listAudit(db, { action: SEEDED_ACTION, limit: 1 });
  const host = seeded?.detail?.host;
  const file = seeded?.detail?.passwordFile;
  return { known: false, seededBy: typeof host === 'string' && typeof file === 'string' ? `${file} on host ${host}` : undefined };
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

/** Whether the demo was retired (SITELINE_SANDBOX=off) after it was last seeded: turning the sandbox back on re-issues it. */
async function wasRetired(db: Kysely<Database>): Promise<boolean> {
  const [[retired], [seeded]] = await Promise.all([listAudit(db, { action: DEMO_RETIRED_ACTION, limit: 1 }), listAudit(db, { action: SEEDED_ACTION, limit: 1 })]);
  return retired !== undefined && (seeded === undefined || retired.id > seeded.id);
}

async function reissuePassword(db: Kysely<Database>, accountId: string, passwordFile: string): Promise<DemoPassword> {
  const password = randomBytes(12).toString('base64url');
  await setAccountPassword(db, accountId, password);
  return recordPassword(db, accountId, password, passwordFile);
}

/** Writes the password file of the instance that set it and says in the audit log where it is, for the others. */
async function recordPassword(db: Kysely<Database>, accountId: string, password: string, passwordFile: string): Promise<DemoPassword> {
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  await appendAudit(db, { accountId, action: SEEDED_ACTION, subject: DEMO_EMAIL, detail: { host: hostname(), passwordFile } });
  return { known: true, password, file: passwordFile };
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
