// Demo seeding: idempotent across restarts, and two replicas seeding one database and data folder at once agree
// (several data folders on one database: replicas.test.ts).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyService } from '../../src/auth/api-keys.ts';
import { readSandboxCredentials } from '../../src/demo/sandbox-credentials.ts';
import { DEMO_EMAIL, seedDemo } from '../../src/demo/seed-demo.ts';
import { verifyAccountPassword } from '../../src/store/accounts-repository.ts';
import { listAudit } from '../../src/store/audit-repository.ts';
import { openDatabase, type Store } from '../../src/store/database.ts';
import { listProjectsForAccount } from '../../src/store/projects-repository.ts';
import { createSecretBox } from '../../src/store/secret-box.ts';
import { createSandbox, DEMO_SITES } from '../../src/sandbox/sandbox.ts';

let dataDir: string;
let store: Store;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'siteline-seed-'));
  store = await openDatabase({ dataDir });
  await createSandbox({ credentialsDir: join(dataDir, 'sandbox-credentials'), env: {} });
});
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('seedDemo', () => {
  // Creating and checking the demo password costs real scrypt work at the production cost.
  it('lets concurrent replicas agree on one account, password, projects and a working key', { timeout: 120_000 }, async () => {
    const credentials = await readSandboxCredentials(join(dataDir, 'sandbox-credentials'));
    const box = createSecretBox(randomBytes(32));
    const seed = () => seedDemo({ db: store.db, box, apiKeys: createApiKeyService({ db: store.db }), sites: DEMO_SITES, credentials, dataDir });
    const [a, b] = await Promise.all([seed(), seed()]);
    expect(a.accountId).toBe(b.accountId);
    const password = (await readFile(join(dataDir, 'demo-password'), 'utf8')).trim();
    expect(await verifyAccountPassword(store.db, DEMO_EMAIL, password)).toBeDefined();
    // The instance that created the account knows the password; the other knows it only if the file was there.
    const known = [a.password, b.password].filter((p) => p.known);
    expect(known.length).toBeGreaterThanOrEqual(1);
    for (const p of known) expect(p).toMatchObject({ known: true, password, file: join(dataDir, 'demo-password') });
    expect((await listProjectsForAccount(store.db, a.accountId)).map((p) => p.key)).toEqual(['acme-shop', 'northwind-journal', 'tiny-saas']);

    const again = await seed();
    expect(again.apiKey).toBe((await readFile(join(dataDir, 'demo-api-key'), 'utf8')).trim());
    const principal = await createApiKeyService({ db: store.db }).verify(again.apiKey);
    expect(principal.accountId).toBe(a.accountId);
    expect([...principal.scopes].sort()).toEqual(['mcp:write', 'raw', 'read']);
  });

  it('connects through the write service, audited as Siteline at start, and a start with nothing changed connects nothing', async () => {
    const credentials = await readSandboxCredentials(join(dataDir, 'sandbox-credentials'));
    const box = createSecretBox(randomBytes(32));
    const connects = () => listAudit(store.db, { action: 'source.connect', limit: 100 });
    const before = await connects();
    expect(before.length).toBeGreaterThanOrEqual(DEMO_SITES.length);
    for (const entry of before) expect(entry).toMatchObject({ accountId: null, detail: expect.objectContaining({ via: 'start' }) });
    // Another box cannot open the stored credentials, so every connection is stored again; the next start keeps them.
    await seedDemo({ db: store.db, box, apiKeys: createApiKeyService({ db: store.db }), sites: DEMO_SITES, credentials, dataDir });
    const reconnected = await connects();
    expect(reconnected.length).toBeGreaterThan(before.length);
    await seedDemo({ db: store.db, box, apiKeys: createApiKeyService({ db: store.db }), sites: DEMO_SITES, credentials, dataDir });
    expect(await connects()).toHaveLength(reconnected.length);
  });
});
