// `projects connect` probes the data source once: the sandbox's credentials (in this data folder) are checked
// against the sandbox, and with the sandbox off refused without a call; a site the credential cannot read is
// refused with the reason, or stored with status error under --force; the analytics property's time zone and
// currency are adopted; site URLs are normalised.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/sandbox.ts';
import { runSiteline } from './run.ts';

let dataDir: string;
let creds: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'siteline-check-'));
  creds = join(dataDir, 'sandbox-credentials');
  await createSandbox({ credentialsDir: creds, env: {} });
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const cli = (args: string[]) => runSiteline(args, { DATA_DIR: dataDir, SITELINE_SANDBOX: 'auto' });
const sa = () => join(creds, 'service-account.json');

describe('projects connect checks the connection', () => {
  it('adopts the analytics property\'s time zone and currency and stores them', async () => {
    expect((await cli(['projects', 'add', '--key', 'shop', '--name', 'Shop', '--domain', 'www.acme-shop.example'])).code).toBe(0);
    const res = await cli(['projects', 'connect', 'shop', 'analytics', '--property-id', '314159265', '--service-account', sa(), '--json']);
    expect(res.code).toBe(0);
    const body = res.json<{ dataSource: { status: string; timeZone: string; currencyCode: string }; adopted: Record<string, string> }>();
    expect(body.dataSource).toMatchObject({ status: 'ok', timeZone: 'Europe/Berlin', currencyCode: 'EUR' });
    expect(body.adopted).toEqual({ timezone: 'Europe/Berlin', currency: 'EUR' });
    const listed = (await cli(['projects', 'list', '--json'])).json<{ projects: { key: string; timezone: string; currency: string }[] }>();
    expect(listed.projects.find((p) => p.key === 'shop')).toMatchObject({ timezone: 'Europe/Berlin', currency: 'EUR' });
  });

  it('normalises a site URL typed without its trailing slash, then finds it in sites.list', async () => {
    const res = await cli(['projects', 'connect', 'shop', 'engine1', '--site-url', 'HTTPS://www.Acme-Shop.example', '--service-account', sa(), '--json']);
    expect(res.code).toBe(0);
    expect(res.json<{ dataSource: { siteUrl: string; status: string } }>().dataSource).toMatchObject({ siteUrl: 'https://www.acme-shop.example/', status: 'ok' });
  });

  it('refuses a site the credential cannot read, naming the near match', async () => {
    const res = await cli(['projects', 'connect', 'shop', 'engine1', '--site-url', 'sc-domain:acme-shop.example', '--service-account', sa()]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("'sc-domain:acme-shop.example' is not among the Search Console properties this credential can read");
    expect(res.stderr).toContain("'https://www.acme-shop.example/'");
  });

  it('--force stores a failing connection with status error and the reason, shown in projects list', async () => {
    const res = await cli(['projects', 'connect', 'shop', 'engine2', '--site-url', 'https://unknown.example/', '--api-key-file', join(creds, 'bing-api-key.txt'), '--force']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('check failed');
    const listed = (await cli(['projects', 'list', '--json'])).json<{ projects: { key: string; dataSources: Record<string, { status: string; statusMessage?: string }> }[] }>();
    const engine2 = listed.projects.find((p) => p.key === 'shop')!.dataSources.engine2!;
    expect(engine2.status).toBe('error');
    expect(engine2.statusMessage).toContain('not a site of the Bing Webmaster Tools account');
  });

  it('refuses a property the credential has no access to with the provider\'s advice', async () => {
    const res = await cli(['projects', 'connect', 'shop', 'analytics', '--property-id', '999', '--service-account', sa()]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No access to analytics property 999');
  });

  it('with the sandbox off, refuses the sandbox\'s credential without sending it anywhere', async () => {
    const res = await runSiteline(['projects', 'connect', 'shop', 'engine2', '--site-url', 'https://www.acme-shop.example/', '--api-key-file', join(creds, 'bing-api-key.txt')], { DATA_DIR: dataDir, SITELINE_SANDBOX: 'off' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('issued by the provider sandbox, which is not running');
  });
});
