// Secrets never leave the provider layer: not in errors (message, headers, upstream body, cause) nor in logs.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.ts';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { createProviderClients } from '../../src/providers/provider-clients.ts';
import { createStubUpstream, json } from './support/stub-upstream.ts';
import { expectEvery } from '../helpers/expect-every.ts';

const KEY = 'BINGKEY0123456789abcdef';
const REFRESH = { client_id: 'cid', client_secret: 'GOCSPX-client-secret', refresh_token: '1//refresh-secret' };

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const dump = (error: unknown): string =>
  error instanceof AppError
    ? [error.message, JSON.stringify(error.headers), JSON.stringify(error.upstream ?? null), String(error.cause ?? ''), error.stack ?? ''].join('\n')
    : String(error);

describe('secret redaction', () => {
  it('keeps the Bing key and Google tokens out of errors and logs', async () => {
    const stub = createStubUpstream();
    const { logger, lines } = capture();
    const clients = createProviderClients({
      endpoints: inProcessEndpoints(stub.handler),
      logger,
      resilience: { attemptTimeoutMs: 300, deadlineMs: 3000, backoffInitialMs: 1, backoffMaxMs: 2 },
    });
    // A provider that echoes the key-bearing URL, a network failure whose text holds the URL, 5xx retries.
    stub.on('/webmaster/api.svc/json/GetQueryStats', (call) =>
      json({ ErrorCode: 8, Message: `bad request /GetQueryStats?apikey=${call.search.get('apikey')}` }, 400),
    );
    stub.on('/webmaster/api.svc/json/GetPageStats', (call) => {
      throw new TypeError(`fetch failed for http://sandbox.invalid/webmaster/api.svc/json/GetPageStats?apikey=${call.search.get('apikey')}`);
    });
    stub.on('/webmaster/api.svc/json/GetRankAndTrafficStats', () => new Response('oops', { status: 503 }));
    stub.on('/v1beta/properties/1:runReport', (call) =>
      json({ error: { code: 500, message: `internal, token ${call.authorization}`, status: 'INTERNAL' } }, 500),
    );
    stub.on('/webmasters/v3/sites', (call) => json({ error: { code: 400, message: `Bad ${call.authorization}`, status: 'INVALID_ARGUMENT' } }, 400));

    const bing = clients.engine2(KEY, 'https://www.example.com/');
    const google = clients.analytics(REFRESH, '1');
    const errors = await Promise.allSettled([
      bing.getQueryStats(),
      bing.rawRequest('GET', 'GetQueryStats'),
      bing.getPageStats(),
      bing.getRankAndTrafficStats(),
      google.runReport({ metrics: [{ name: 'sessions' }] }),
      clients.analytics({ ...REFRESH, refresh_token: 'revoked' }, '1').runReport({}),
    ]);
    const gsc = await Promise.allSettled([clients.engine1(REFRESH, 'sc-domain:example.com').listSites()]);
    const all = [...errors, ...gsc];
    expectEvery(all, (r) => r.status === 'rejected');
    expect(stub.issuedTokens.length).toBeGreaterThan(0);
    expect(lines.length).toBeGreaterThan(3); // retries were logged

    const secrets = [KEY, REFRESH.client_secret, REFRESH.refresh_token, ...stub.issuedTokens];
    const texts = [...all.map((r) => (r.status === 'rejected' ? dump(r.reason) : '')), ...lines];
    for (const text of texts) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toContain('api.svc');
    }
    const raw = errors[1];
    expect(raw?.status === 'rejected' && raw.reason).toMatchObject({ code: 'upstream_rejected', upstream: { ErrorCode: 8 } });
  });
});
