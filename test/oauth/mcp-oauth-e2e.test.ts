// End to end, as a real MCP client connects by URL: the MCP client SDK's OAuth support with a test
// OAuthClientProvider whose redirectToAuthorization drives the authorization page in headless Chromium.
// Unauthenticated start → 401 → discovery → dynamic registration → sign in and approve in the browser → code
// exchange (iss checked) → tools/list → create_funnel, stepping up to mcp:write → refresh → a reused refresh
// token is rejected and ends the grant.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import {
  Client,
  discoverAuthorizationServerMetadata,
  refreshAuthorization,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccountPassword } from '../../src/store/accounts-repository.ts';
import { hasChromium, launchBrowser, SCREENSHOT_DIR, serveTestRuntime, type Browser, type ServedRuntime } from '../helpers/browser.ts';
import { createAccountWithKey } from '../helpers/test-runtime.ts';
import { rejectionOf } from '../domain/expect-app-error.ts';

const EMAIL = 'mcp-user@example.com';
const PASSWORD = 'a long enough password';

/** A loopback redirect target like the one native MCP clients open: records each callback URL. */
async function startCallbackServer(): Promise<{ url: string; next(): Promise<URL>; close(): Promise<void> }> {
  const waiting: ((url: URL) => void)[] = [];
  const arrived: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end(); // e.g. the browser's /favicon.ico
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Done</title><p>You can close this window.</p>');
    const resolve = waiting.shift();
    if (resolve) resolve(url);
    else arrived.push(url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

class BrowserDrivenProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = '';
  lastState = '';
  readonly authorizationUrls: URL[] = [];
  readonly callbacks: URL[] = [];
  readonly redirectUrl: string;
  private readonly drive: (url: URL) => Promise<URL>;

  constructor(redirectUrl: string, drive: (url: URL) => Promise<URL>) {
    this.redirectUrl = redirectUrl;
    this.drive = drive;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E MCP client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state(): string {
    this.lastState = randomBytes(12).toString('base64url');
    return this.lastState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** Opens the authorization URL in the browser and waits until it lands on the callback. */
  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
    this.callbacks.push(await this.drive(url));
  }
  get lastCallback(): URL {
    const callback = this.callbacks.at(-1);
    if (!callback) throw new Error('no authorization callback yet');
    return callback;
  }
}

describe.skipIf(!hasChromium)('MCP client SDK OAuth against Siteline, through Chromium', () => {
  let served: ServedRuntime;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  let page: Page;
  let consentShots = 0;
  /** Moves the server's clock ahead (past the refresh reuse window). */
  let skewMs = 0;

  beforeAll(async () => {
    served = await serveTestRuntime({ clock: () => new Date(Date.now() + skewMs) });
    const { accountId } = await createAccountWithKey(served.rt, { email: EMAIL, projects: ['shop'] });
    await setAccountPassword(served.rt.store.db, accountId, PASSWORD);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    callback = await startCallbackServer();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await served?.close();
  });

  /** What a user does in the browser: sign in if asked, look at the consent screen, allow. */
  async function authorizeInBrowser(url: URL): Promise<URL> {
    const landed = callback.next();
    await page.goto(url.href);
    if (new URL(page.url()).pathname === '/account/sign-in') {
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'oauth-sign-in.png'), fullPage: true });
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((u) => u.pathname === '/oauth/authorize');
    }
    expect(await page.locator('#client-name').textContent()).toBe('E2E MCP client');
    await page.screenshot({ path: join(SCREENSHOT_DIR, consentShots++ === 0 ? 'consent.png' : 'consent-step-up.png'), fullPage: true });
    await page.getByRole('button', { name: 'Allow access' }).click();
    return landed;
  }

  it('connects by URL, lists tools, steps up for create_funnel, refreshes, and detects refresh-token reuse', async () => {
    const mcpUrl = new URL('/api/mcp', served.origin);
    const provider = new BrowserDrivenProvider(callback.url, (url) => authorizeInBrowser(url));
    const connect = async () => {
      const client = new Client({ name: 'e2e', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await client.connect(transport);
      return { client, transport };
    };

    // 1. Unauthenticated: 401 → PRM → AS metadata → DCR → authorization in the browser.
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toMatch(/^slc_/);
    const authorization = provider.authorizationUrls[0]!;
    expect(authorization.origin + authorization.pathname).toBe(`${served.origin}/oauth/authorize`);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('resource')).toBe(mcpUrl.href);
    expect(provider.lastCallback.searchParams.get('state')).toBe(provider.lastState);
    expect(provider.lastCallback.searchParams.get('iss')).toBe(served.origin);

    // 2. Code exchange (the SDK checks iss against the issuer, RFC 9207).
    await first.finishAuth(provider.lastCallback.searchParams);
    expect(provider.saved?.refresh_token).toBeTruthy();
    expect(decodeJwt(provider.saved!.access_token).aud).toBe(mcpUrl.href);
    expect(provider.saved?.scope?.split(' ')).not.toContain('mcp:write');

    // 3. Authorized: tools/list.
    let { client, transport } = await connect();
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_projects', 'create_funnel']));

    // 4. create_funnel needs mcp:write: 403 insufficient_scope → the SDK re-authorizes (browser, already signed in).
    const args = {
      project: 'shop',
      name: 'Checkout',
      steps: [
        { name: 'Product', type: 'page', match: 'begins_with', value: '/products/' },
        { name: 'Purchase', type: 'event', match: 'exact', value: 'purchase' },
      ],
    };
    await expect(client.callTool({ name: 'create_funnel', arguments: args })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrls).toHaveLength(2);
    expect(provider.authorizationUrls[1]!.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['read', 'mcp:write']));
    await transport.finishAuth(provider.lastCallback.searchParams);
    expect(provider.saved?.scope?.split(' ')).toEqual(expect.arrayContaining(['read', 'mcp:write']));
    await client.close();
    ({ client, transport } = await connect());
    const preview = await client.callTool({ name: 'create_funnel', arguments: args });
    expect(preview.isError, JSON.stringify(preview.content)).toBeFalsy();
    const token = (preview.structuredContent as { confirmation_token: string }).confirmation_token;
    const created = await client.callTool({ name: 'create_funnel', arguments: { ...args, confirmation_token: token } });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const funnels = await fetch(`${served.origin}/api/v1/projects/shop/funnels/list`, { headers: { authorization: `Bearer ${provider.saved!.access_token}` } });
    expect(funnels.status).toBe(401); // the OAuth token is for /api/mcp only; REST needs an API key

    // 5. Refresh: an unusable access token makes the SDK refresh (rotating the refresh token) and retry.
    const beforeRefresh = provider.saved!;
    provider.saved = { ...beforeRefresh, access_token: 'expired.or.garbage' };
    const again = await client.listTools();
    expect(again.tools.length).toBe(tools.tools.length);
    expect(provider.saved.refresh_token).toBeTruthy();
    expect(provider.saved.refresh_token).not.toBe(beforeRefresh.refresh_token);
    expect(provider.authorizationUrls).toHaveLength(2); // no browser round trip for a refresh

    // 6. The old refresh token again after the reuse window: rejected, and the grant is revoked (the new tokens die with it).
    skewMs += (served.rt.deps.web!.oauth.config.refreshReuseWindowSec + 1) * 1000;
    const metadata = await discoverAuthorizationServerMetadata(served.origin);
    const reuse = await rejectionOf(
      refreshAuthorization(served.origin, { metadata, clientInformation: provider.client!, refreshToken: beforeRefresh.refresh_token!, resource: mcpUrl }),
    );
    expect(reuse).toMatchObject({ code: 'invalid_grant' });
    expect((reuse as Error).message).toContain('already used');
    const afterReuse = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.saved.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(afterReuse.status).toBe(401);
    await expect(
      refreshAuthorization(served.origin, { metadata, clientInformation: provider.client!, refreshToken: provider.saved.refresh_token!, resource: mcpUrl }),
    ).rejects.toThrow();
    await client.close();
  }, 120_000);
});
