// Shared test wiring: a sandbox with reusable credentials (RSA generation is slow), a fixed clock, and
// helpers that mint a real access token through the sandbox's own token endpoint.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type CreateSandboxOptions, type Sandbox } from '../../src/sandbox/sandbox.ts';

export const CREDENTIALS_DIR = join(tmpdir(), 'siteline-sandbox-test-credentials');
export const FIXED_NOW = new Date('2026-06-17T15:30:00Z');
export const LARGE = '314159265';
export const MEDIUM = '271828182';
export const SMALL = '161803398';
export const SHOP_SITE = 'https://www.acme-shop.example/';
export const JOURNAL_SITE = 'sc-domain:northwind-journal.example';

export function testSandbox(options: CreateSandboxOptions = {}): Promise<Sandbox> {
  return createSandbox({ credentialsDir: CREDENTIALS_DIR, env: {}, now: () => FIXED_NOW, ...options });
}

export async function accessToken(sandbox: Sandbox): Promise<string> {
  const c = sandbox.credentials.oauthClient;
  const res = await sandbox.fetch(new Request('https://oauth2.googleapis.com/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: c.client_id, client_secret: c.client_secret, refresh_token: c.refresh_token }),
  }));
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export type Json = Record<string, any>;

/** POSTs JSON with a Bearer token and returns status + parsed body. */
export async function post(sandbox: Sandbox, token: string, url: string, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await sandbox.fetch(new Request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as Json };
}

export const gaUrl = (property: string, verb: string) => `https://analyticsdata.googleapis.com/v1beta/properties/${property}:${verb}`;
export const gscUrl = (siteUrl: string) => `https://searchconsole.googleapis.com/webmasters/v3/sites/${encodeURIComponent(siteUrl)}/searchAnalytics/query`;

/** A runReport body over a fixed window. */
export function report(extra: Json): Json {
  return { dateRanges: [{ startDate: '2026-03-01', endDate: '2026-05-31' }], ...extra };
}

export const num = (v: { value: string }) => Number(v.value);
