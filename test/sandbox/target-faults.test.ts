// Per-property and per-site switches over the control API: named misconfigurations answered with the providers'
// exact bodies, the quota-project error only without x-goog-user-project, property time zones, validation.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, LARGE, post, report, SHOP_SITE, SMALL, testSandbox } from './helpers.ts';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await accessToken(sandbox);
});

const control = (body: unknown) =>
  sandbox.fetch(new Request('http://sandbox.test/__sandbox/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
const GA_BODY = report({ metrics: [{ name: 'sessions' }] });

describe('target fault switches', () => {
  it('are set, read and cleared per property through the control API; bad switches are refused', async () => {
    const set = await control({ targets: { [LARGE]: { failure: 'service_disabled', errorRate: 0.5 } } });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { targets: Record<string, unknown> }).targets[LARGE]).toEqual({ failure: 'service_disabled', errorRate: 0.5 });
    const bad = await control({ targets: { [LARGE]: { failure: 'typo', timeZone: 'Mars/Base' } } });
    expect(bad.status).toBe(400);
    const cleared = await control({ targets: { [LARGE]: {} } });
    expect(((await cleared.json()) as { targets: Record<string, unknown> }).targets).toEqual({});
  });

  it('SERVICE_DISABLED comes as google.rpc.Status with ErrorInfo, LocalizedMessage and Help details', async () => {
    sandbox.setFaults({ targets: { [SMALL]: { failure: 'service_disabled' } } });
    const res = await post(sandbox, token, gaUrl(SMALL, 'runReport'), GA_BODY);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
    expect(res.body.error.message).toMatch(/^Google Analytics Data API has not been used in project \d+ before or it is disabled\./);
    expect(res.body.error.details.map((d: { '@type': string }) => d['@type'])).toEqual([
      'type.googleapis.com/google.rpc.ErrorInfo',
      'type.googleapis.com/google.rpc.LocalizedMessage',
      'type.googleapis.com/google.rpc.Help',
    ]);
    expect(res.body.error.details[0]).toMatchObject({ reason: 'SERVICE_DISABLED', domain: 'googleapis.com', metadata: { service: 'analyticsdata.googleapis.com' } });
    sandbox.setFaults({ targets: { [SMALL]: {} } });
  });

  it('the quota-project error fires only for requests without x-goog-user-project', async () => {
    sandbox.setFaults({ targets: { [SMALL]: { failure: 'quota_project_required' } } });
    expect((await post(sandbox, token, gaUrl(SMALL, 'runReport'), GA_BODY)).status).toBe(403);
    const named = await sandbox.fetch(new Request(gaUrl(SMALL, 'runReport'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-goog-user-project': 'billing-project' },
      body: JSON.stringify(GA_BODY),
    }));
    expect(named.status).toBe(200);
    sandbox.setFaults({ targets: { [SMALL]: {} } });
  });

  it('a property time zone and currency override the catalogue in reports', async () => {
    sandbox.setFaults({ targets: { [SMALL]: { timeZone: 'Asia/Tokyo', currencyCode: 'JPY' } } });
    const res = await post(sandbox, token, gaUrl(SMALL, 'runReport'), GA_BODY);
    expect(res.body.metadata).toMatchObject({ timeZone: 'Asia/Tokyo', currencyCode: 'JPY' });
    sandbox.setFaults({ targets: { [SMALL]: {} } });
  });

  it('a named failure on one site leaves the others alone', async () => {
    sandbox.setFaults({ targets: { [SHOP_SITE]: { failure: 'permission_denied' } } });
    expect((await post(sandbox, token, gaUrl(LARGE, 'runReport'), GA_BODY)).status).toBe(200);
    sandbox.setFaults({ targets: { [SHOP_SITE]: {} } });
  });
});
