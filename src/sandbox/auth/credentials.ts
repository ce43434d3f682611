// The credentials the sandbox issues and trusts: loaded from the credentials dir when present (the app keeps
// copies, so they must survive restarts), generated (RSA 2048 via node:crypto) only where missing.
import { generateKeyPairSync, randomBytes, createPublicKey, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DemoSite } from '../catalogue.ts';

// Type aliases (not interfaces) so the key files are assignable to Record<string, unknown> credential inputs.
export type ServiceAccountKey = {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
  auth_provider_x509_cert_url: string;
  client_x509_cert_url: string;
  universe_domain: string;
};

export type OAuthClientCredentials = {
  client_id: string;
  client_secret: string;
  refresh_token: string;
};

export interface SandboxCredentials {
  /** Where the files live, or undefined for in-memory credentials. */
  dir?: string;
  serviceAccount: ServiceAccountKey;
  oauthClient: OAuthClientCredentials;
  bingApiKey: string;
  /** Signs access tokens (HMAC-SHA256): persisted so tokens stay valid across restarts. */
  tokenSecret: string;
  /** The service account's public key, for verifying JWT-bearer assertions. */
  servicePublicKey: KeyObject;
}

const rand = (bytes: number, encoding: BufferEncoding = 'hex') => randomBytes(bytes).toString(encoding).replace(/[^A-Za-z0-9]/g, '').slice(0, bytes * 2);

function newServiceAccount(): ServiceAccountKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const projectId = 'siteline-sandbox';
  const email = `siteline-reader@${projectId}.iam.gserviceaccount.com`;
  return {
    type: 'service_account',
    project_id: projectId,
    private_key_id: rand(20),
    private_key: privateKey,
    client_email: email,
    client_id: String(100_000_000_000_000_000_000n + BigInt(`0x${rand(8)}`)),
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
    universe_domain: 'googleapis.com',
  };
}

function newOAuthClient(): OAuthClientCredentials {
  return {
    client_id: `${100_000_000_000 + (randomBytes(5).readUIntBE(0, 5) % 800_000_000_000)}-${rand(16)}.apps.googleusercontent.com`,
    client_secret: `GOCSPX-${rand(14, 'base64')}`,
    refresh_token: `1//0sandbox${rand(30, 'base64')}`,
  };
}

async function readJsonFile<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`sandbox credentials: cannot read ${path}: ${(error as Error).message}`);
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Loads the credentials from `dir`, generating and writing whatever is missing, and (re)writes
 * properties.json from the catalogue. With `dir` undefined everything is generated in memory.
 */
export async function loadOrCreateCredentials(dir: string | undefined, catalogue: readonly DemoSite[]): Promise<SandboxCredentials> {
  const file = (name: string) => join(dir!, name);
  const serviceAccount = (dir ? await readJsonFile<ServiceAccountKey>(file('service-account.json')) : undefined) ?? newServiceAccount();
  const oauthClient = (dir ? await readJsonFile<OAuthClientCredentials>(file('oauth-client.json')) : undefined) ?? newOAuthClient();
  const bingApiKey = (dir ? await readText(file('bing-api-key.txt')) : undefined) ?? rand(16).toUpperCase();
  const tokenSecret = (dir ? await readText(file('token-secret.txt')) : undefined) ?? rand(32);
  if (dir) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const secret = { mode: 0o600 };
    await writeFile(file('service-account.json'), `${JSON.stringify(serviceAccount, null, 2)}\n`, secret);
    await writeFile(file('oauth-client.json'), `${JSON.stringify(oauthClient, null, 2)}\n`, secret);
    await writeFile(file('bing-api-key.txt'), `${bingApiKey}\n`, secret);
    await writeFile(file('token-secret.txt'), `${tokenSecret}\n`, secret);
    await writeFile(file('properties.json'), `${JSON.stringify(describeCatalogue(catalogue), null, 2)}\n`);
  }
  return { dir, serviceAccount, oauthClient, bingApiKey, tokenSecret, servicePublicKey: createPublicKey(serviceAccount.private_key) };
}

export function describeCatalogue(catalogue: readonly DemoSite[]): unknown {
  return {
    sites: catalogue.map((s) => ({
      key: s.key, name: s.name, domain: s.domain, timezone: s.timezone, currency: s.currency, size: s.size, kind: s.kind,
      analytics: { propertyId: s.analytics.propertyId, property: `properties/${s.analytics.propertyId}` },
      engine1: { siteUrl: s.engine1.siteUrl },
      engine2: { siteUrl: s.engine2.siteUrl },
    })),
  };
}
