// Every fault switch and limit produces the provider's exact error body; the randomness replays by seed.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, gscUrl, post, report, SHOP_SITE, SMALL, testSandbox, type Json } from './helpers.ts';
import { expectEvery } from '../helpers/expect-every.ts';

const GA_BODY = report({ metrics: [{ name: 'sessions' }] });
const GSC_BODY = { startDate: '2026-05-01', endDate: '2026-05-02' };

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await accessToken(sandbox);
});

const bing = async (sb: Sandbox, method = 'GetRankAndTrafficStats', key = sb.credentials.bingApiKey) => {
  const res = await sb.fetch(new Request(`https://ssl.bing.com/webmaster/api.svc/json/${method}?apikey=${key}&siteUrl=${encodeURIComponent(SHOP_SITE)}`));
  return { status: res.status, text: await res.text() };
};
const token429 = async (sb: Sandbox) => sb.fetch(new Request('https://oauth2.googleapis.com/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) }));

/** Each provider's answer to one call, as [status, body]. */
async function callAll(sb: Sandbox, t: string): Promise<Record<'analytics' | 'engine1' | 'engine2' | 'token', [number, unknown]>> {
  const ga = await post(sb, t, gaUrl(SMALL, 'runReport'), GA_BODY);
  const gsc = await post(sb, t, gscUrl(SHOP_SITE), GSC_BODY);
  const b = await bing(sb);
  const tk = await token429(sb);
  return { analytics: [ga.status, ga.body], engine1: [gsc.status, gsc.body], engine2: [b.status, JSON.parse(b.text)], token: [tk.status, await tk.json()] };
}

describe('fault switches', () => {
  it('429 bursts answer the next N requests with each provider\'s throttle body, then recover', async () => {
    const sb = await testSandbox();
    const t = await accessToken(sb);
    sb.setFaults({ all: { burst429: 1 } });
    const first = await callAll(sb, t);
    expect(first.analytics).toEqual([429, { error: { code: 429, message: 'Exhausted property tokens per hour for a project per property. These quota tokens will return in under an hour. To learn more, see https://developers.google.com/analytics/devguides/reporting/data/v1/quotas', status: 'RESOURCE_EXHAUSTED' } }]);
    expect(first.engine1).toEqual([429, { error: { code: 429, message: 'Rate Limit Exceeded', errors: [{ message: 'Rate Limit Exceeded', domain: 'usageLimits', reason: 'rateLimitExceeded' }] } }]);
    expect(first.engine2).toEqual([429, { ErrorCode: 4, Message: 'ERROR!!! ThrottleUser' }]);
    expect(first.token).toEqual([429, { error: 'rate_limit_exceeded', error_description: 'Rate limit exceeded. Try again later.' }]);
    const second = await callAll(sb, t);
    expect(second.analytics[0]).toBe(200);
    expect(second.engine1[0]).toBe(200);
    expect(second.engine2[0]).toBe(200);
  });

  it('error rate 1 gives each provider\'s 5xx body', async () => {
    const sb = await testSandbox();
    const t = await accessToken(sb);
    sb.setFaults({ all: { errorRate: 1 } });
    const out = await callAll(sb, t);
    expect(out.analytics).toEqual([503, { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } }]);
    expect(out.engine1).toEqual([500, { error: { code: 500, message: 'Internal error encountered.', errors: [{ message: 'Internal error encountered.', domain: 'global', reason: 'backendError' }], status: 'INTERNAL' } }]);
    expect(out.engine2).toEqual([500, { ErrorCode: 1, Message: 'ERROR!!! InternalError' }]);
    expect(out.token).toEqual([503, { error: 'temporarily_unavailable', error_description: 'The service is currently unavailable.' }]);
  });

  it('error decisions replay exactly for the same seed and rate', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0.1, max: 0.9, noNaN: true }), async (seed, errorRate) => {
      const run = async () => {
        sandbox.setFaults({ seed, engine2: { errorRate } });
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++) statuses.push((await bing(sandbox, 'GetUserSites')).status);
        return statuses;
      };
      const a = await run();
      const b = await run();
      expect(b).toEqual(a);
      expectEvery(a, (s) => s === 200 || s === 500);
    }), { numRuns: 8 });
    sandbox.clearFaults();
  });

  it('malformed bodies are 200s with truncated JSON', async () => {
    const sb = await testSandbox();
    const t = await accessToken(sb);
    sb.setFaults({ analytics: { malformedRate: 1 } });
    const res = await sb.fetch(new Request(gaUrl(SMALL, 'runReport'), { method: 'POST', headers: { authorization: `Bearer ${t}` }, body: JSON.stringify(GA_BODY) }));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith('{')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('hanging requests answer only by rejecting when the caller aborts', async () => {
    const sb = await testSandbox({ faults: { engine1: { hang: true } } });
    const t = await accessToken(sb);
    const controller = new AbortController();
    let settled = false;
    const pending = sb.fetch(new Request(gscUrl(SHOP_SITE), { method: 'POST', headers: { authorization: `Bearer ${t}` }, body: JSON.stringify(GSC_BODY), signal: controller.signal }))
      .finally(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('added latency delays but still answers (fake timers: no wall-clock dependence)', async () => {
    const { vi } = await import('vitest');
    const sb = await testSandbox({ faults: { engine2: { latencyMs: 5_000, jitterMs: 100 } } });
    vi.useFakeTimers();
    try {
      let done = false;
      const pending = bing(sb, 'GetUserSites').then((r) => ((done = true), r));
      await vi.advanceTimersByTimeAsync(4_000);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1_200);
      expect((await pending).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('revoked credentials: invalid_grant at the token endpoint, 401 for outstanding tokens, InvalidApiKey for the Bing key', async () => {
    const sb = await testSandbox();
    const t = await accessToken(sb);
    sb.setFaults({ revoked: { oauth: true, bingKey: true } });
    const c = sb.credentials.oauthClient;
    const tokenRes = await sb.fetch(new Request('https://oauth2.googleapis.com/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', client_id: c.client_id, client_secret: c.client_secret, refresh_token: c.refresh_token }) }));
    expect(tokenRes.status).toBe(400);
    expect(await tokenRes.json()).toEqual({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    const ga = await post(sb, t, gaUrl(SMALL, 'runReport'), GA_BODY);
    expect(ga.status).toBe(401);
    expect(ga.body.error.status).toBe('UNAUTHENTICATED');
    expect(ga.body.error.message).toMatch(/^Request had invalid authentication credentials\./);
    const gsc = await post(sb, t, gscUrl(SHOP_SITE), GSC_BODY);
    expect(gsc.status).toBe(401);
    expect(gsc.body.error.errors[0].reason).toBe('unauthorized');
    expect(await bing(sb)).toEqual({ status: 400, text: '{"ErrorCode":3,"Message":"ERROR!!! InvalidApiKey"}' });
    sb.setFaults({ revoked: { oauth: false } });
    expect((await post(sb, t, gaUrl(SMALL, 'runReport'), GA_BODY)).status).toBe(200);
  });

  it('accepts the switches over HTTP and rejects unknown ones', async () => {
    const sb = await testSandbox();
    const set = await sb.fetch(new Request('http://sandbox/__sandbox/faults', { method: 'POST', body: JSON.stringify({ engine1: { errorRate: 0.5 }, seed: 7 }) }));
    expect(((await set.json()) as Json).engine1.errorRate).toBe(0.5);
    const bad = await sb.fetch(new Request('http://sandbox/__sandbox/faults', { method: 'POST', body: JSON.stringify({ engine1: { errorRate: 2 }, bogus: 1 }) }));
    expect(bad.status).toBe(400);
    await sb.fetch(new Request('http://sandbox/__sandbox/faults', { method: 'DELETE' }));
    expect(sb.faults().engine1.errorRate).toBe(0);
  });

  it('reads switches from the environment', async () => {
    const sb = await testSandbox({ env: { SANDBOX_ERROR_RATE: '1', SANDBOX_ENGINE2_ERROR_RATE: '0', SANDBOX_REVOKED: 'service-account', SANDBOX_GA_TOKENS_PER_HOUR: '5' } });
    const f = sb.faults();
    expect([f.analytics.errorRate, f.engine1.errorRate, f.engine2.errorRate]).toEqual([1, 1, 0]);
    expect(f.revoked).toEqual({ oauth: false, serviceAccount: true, bingKey: false });
    expect(f.analyticsQuota.tokensPerHour).toBe(5);
  });
});

describe('limits', () => {
  it('GA token quota: returnPropertyQuota counts down, then every request gets RESOURCE_EXHAUSTED', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 12 }), async (limit) => {
      const sb = await testSandbox({ faults: { analyticsQuota: { tokensPerHour: limit } } });
      const t = await accessToken(sb);
      let remaining = limit;
      for (let i = 0; i < limit; i++) {
        const res = await post(sb, t, gaUrl(SMALL, 'runReport'), { ...GA_BODY, returnPropertyQuota: true });
        expect(res.status).toBe(200);
        remaining -= res.body.propertyQuota.tokensPerHour.consumed;
        expect(res.body.propertyQuota.tokensPerHour.remaining ?? 0).toBe(Math.max(0, remaining));
        if (remaining <= 0) break;
      }
      const over = await post(sb, t, gaUrl(SMALL, 'runReport'), GA_BODY);
      expect(over.status).toBe(429);
      expect(over.body.error.status).toBe('RESOURCE_EXHAUSTED');
      expect(over.body.error.message).toMatch(/^Exhausted property tokens per hour\./);
    }), { numRuns: 4 });
  });

  it('an 11th concurrent request to one property gets 429 while ten are in flight', async () => {
    const sb = await testSandbox({ faults: { analytics: { hang: true } } });
    const t = await accessToken(sb);
    const controller = new AbortController();
    const call = () => sb.fetch(new Request(gaUrl(SMALL, 'runReport'), { method: 'POST', headers: { authorization: `Bearer ${t}` }, body: JSON.stringify(GA_BODY), signal: controller.signal }));
    const hanging = Array.from({ length: 10 }, call);
    const eleventh = await call();
    expect(eleventh.status).toBe(429);
    expect(((await eleventh.json()) as Json).error.message).toMatch(/^Exhausted concurrent requests quota for this property\./);
    controller.abort();
    await Promise.allSettled(hanging);
    sb.setFaults({ analytics: { hang: false } });
    expect((await post(sb, t, gaUrl(SMALL, 'runReport'), GA_BODY)).status).toBe(200);
  });

  it('GSC rejects rowLimit above 25,000', async () => {
    const res = await post(sandbox, token, gscUrl(SHOP_SITE), { ...GSC_BODY, rowLimit: 25001 });
    expect(res.status).toBe(400);
    expect(res.body.error.errors[0].reason).toBe('badRequest');
  });

  it('counts upstream calls per provider and method, and resets', async () => {
    const sb = await testSandbox();
    const t = await accessToken(sb);
    await post(sb, t, gaUrl(SMALL, 'runReport'), GA_BODY);
    await post(sb, t, gaUrl(SMALL, 'batchRunReports'), { requests: [GA_BODY, GA_BODY] });
    await bing(sb, 'GetUserSites');
    const stats = (await (await sb.fetch(new Request('http://x/__sandbox/stats'))).json()) as Json;
    expect(stats).toEqual({ analytics: { runReport: 1, batchRunReports: 1 }, engine1: {}, engine2: { GetUserSites: 1 }, token: { token: 1 }, total: 4 });
    await sb.fetch(new Request('http://x/__sandbox/stats/reset', { method: 'POST' }));
    expect(sb.stats().total).toBe(0);
  });
});
