// Who owns an installation set up without the browser, and the demo's Google client: with the sandbox and no
// GOOGLE_OAUTH_* settings, "Connect Google" uses the sandbox's OAuth client from its credentials folder.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { roleOf, setRole } from '../../src/store/account-roles-repository.ts';
import { createAccount } from '../../src/store/accounts-repository.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime | undefined;
let demo: { runtime: Runtime; dir: string } | undefined;
afterEach(async () => {
  await rt?.dispose();
  rt = undefined;
  if (demo) {
    await demo.runtime.close();
    await rm(demo.dir, { recursive: true, force: true });
    demo = undefined;
  }
});

describe('account roles', () => {
  it('the oldest account owns the installation until someone is marked owner', async () => {
    rt = await createTestRuntime();
    const first = await createAccount(rt.store.db, { email: 'first@example.com', name: 'First', now: new Date('2026-01-01T00:00:00Z') });
    const second = await createAccount(rt.store.db, { email: 'second@example.com', name: 'Second', now: new Date('2026-01-02T00:00:00Z') });
    expect(await roleOf(rt.store.db, first.id)).toBe('owner');
    expect(await roleOf(rt.store.db, second.id)).toBe('member');
    await setRole(rt.store.db, second.id, 'owner');
    expect(await roleOf(rt.store.db, first.id)).toBe('member');
    expect(await roleOf(rt.store.db, second.id)).toBe('owner');
  });
});

describe('the demo', () => {
  it('configures Connect Google with the sandbox OAuth client, pointed at the sandbox', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'siteline-demo-google-'));
    const settings = loadSettings({ DATA_DIR: dir, SITELINE_SANDBOX: 'auto', SANDBOX_PORT: '0', PORT: '0', LOG_LEVEL: 'silent', SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
    demo = { runtime: await createRuntime(settings, { logger: silentLogger() }), dir };
    const client = JSON.parse(await readFile(join(dir, 'sandbox-credentials', 'oauth-client.json'), 'utf8')) as { client_id: string };
    const google = demo.runtime.deps.dashboard!.google!;
    expect(google.clientId).toBe(client.client_id);
    const started = await google.flow.start({ state: 's', redirectUri: 'http://127.0.0.1:3000/dashboard/connect/google/callback' });
    const consent = await fetch(started.url);
    expect(new URL(started.url).origin).toBe(demo.runtime.demo!.sandboxUrl);
    expect(consent.status).toBe(200);
    expect(await consent.text()).toContain('Siteline wants to access your Google Account');
  }, 60_000);

  it('without the sandbox and without settings, Connect Google is off; half the settings is an error', async () => {
    rt = await createTestRuntime();
    expect(rt.deps.dashboard!.google).toBeUndefined();
    await expect(createTestRuntime({ env: { GOOGLE_OAUTH_CLIENT_ID: 'only-the-id' } })).rejects.toThrow('GOOGLE_OAUTH_CLIENT_SECRET');
  });
});
