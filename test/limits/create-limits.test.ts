import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLimits } from '../../src/limits/create-limits.ts';
import { failure } from '../helpers/failure.ts';


async function times(n: number, fn: () => unknown): Promise<void> {
  for (let i = 0; i < n; i += 1) await fn();
}

// The in-memory windows read Date.now: time is faked.
beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('request limits (in-memory)', () => {
  it('advertises the policy and what is left of it', async () => {
    const limits = createLimits();
    const first = await limits.consumeRequest('key-1');
    // Both windows that can refuse a request are stated: the quota per minute and the burst per second.
    expect(first.headers).toEqual({ 'ratelimit-policy': '"default";q=600;w=60, "burst";q=60;w=1', ratelimit: '"default";r=599;t=60, "burst";r=59;t=1' });
    vi.advanceTimersByTime(15_000);
    expect((await limits.consumeRequest('key-1')).headers.ratelimit).toBe('"default";r=598;t=45, "burst";r=59;t=1');
  });

  it('answers an allowed request at once and a refused one as a rejection', async () => {
    const limits = createLimits({ config: { request: { name: 'default', points: 1, windowSec: 60 } } });
    const allowed = limits.consumeRequest('key-1');
    expect(allowed).not.toBeInstanceOf(Promise);
    expect(allowed).toMatchObject({ state: { allowed: true, remaining: 0 } });
    const refused = limits.consumeRequest('key-1');
    expect(refused).toBeInstanceOf(Promise);
    expect(await failure(refused)).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  it('allows a burst of 60 in one second, refuses the 61st, and allows again in the next second', async () => {
    const limits = createLimits();
    await times(60, () => limits.consumeRequest('key-1'));
    const err = await failure(limits.consumeRequest('key-1'));
    expect(err).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(err.headers).toEqual({ 'ratelimit-policy': '"default";q=600;w=60, "burst";q=60;w=1', ratelimit: '"default";r=540;t=60, "burst";r=0;t=1', 'Retry-After': '1' });
    // The message names the limit that refused: the burst window, not the per-minute quota.
    expect(err.message).toBe('Too many requests at once for this API key: at most 60 per 1 s. Retry after 1 s.');

    vi.advanceTimersByTime(1_000);
    const after = await limits.consumeRequest('key-1');
    // The refused request did not count against the per-minute quota: 61 requests, 60 + 1 allowed.
    expect(after.state.remaining).toBe(600 - 61);
  });

  it('refuses past the per-minute quota until the window ends, with Retry-After counting down', async () => {
    const limits = createLimits({ config: { request: { name: 'default', points: 10, windowSec: 60 } } });
    await times(10, () => limits.consumeRequest('key-1'));
    expect((await failure(limits.consumeRequest('key-1'))).headers['Retry-After']).toBe('60');
    vi.advanceTimersByTime(30_000);
    const err = await failure(limits.consumeRequest('key-1'));
    expect(err.headers).toMatchObject({ ratelimit: '"default";r=0;t=30, "burst";r=59;t=1', 'Retry-After': '30' });
    expect(err.message).toContain('at most 10 per 60 s');
    vi.advanceTimersByTime(30_000);
    expect((await limits.consumeRequest('key-1')).state.remaining).toBe(9);
  });

  it('honours per-key overrides without touching other keys', async () => {
    const limits = createLimits();
    await times(3, () => limits.consumeRequest('small', { quota: 3 }));
    await expect(limits.consumeRequest('small', { quota: 3 })).rejects.toMatchObject({ code: 'rate_limited' });
    expect((await limits.consumeRequest('other')).state.remaining).toBe(599);

    await times(2, () => limits.consumeRequest('tight-burst', { burst: 2 }));
    expect((await failure(limits.consumeRequest('tight-burst', { burst: 2 }))).message).toContain('at most 2 per 1 s');
    const big = await limits.consumeRequest('big', { quota: 5_000 });
    expect(big.headers['ratelimit-policy']).toBe('"default";q=5000;w=60, "burst";q=60;w=1');
  });

  it('limits force=1 to 30 per hour per project', async () => {
    const limits = createLimits();
    await times(30, () => limits.consumeForce('demo'));
    const { state } = await limits.consumeRequest('key-1');
    const err = await failure(limits.consumeForce('demo', state));
    expect(err.headers).toEqual({
      'ratelimit-policy': '"default";q=600;w=60, "force";q=30;w=3600',
      ratelimit: '"default";r=599;t=60, "force";r=0;t=3600',
      'Retry-After': '3600',
    });
    expect((await limits.consumeForce('other-project')).remaining).toBe(29);
    vi.advanceTimersByTime(3_600_000);
    expect((await limits.consumeForce('demo')).allowed).toBe(true);
  });

  it('blocks an IP after 30 failed authentications in a minute', async () => {
    const limits = createLimits();
    await times(29, () => limits.recordAuthFailure('203.0.113.9'));
    await limits.assertAuthAllowed('203.0.113.9');
    await limits.recordAuthFailure('203.0.113.9');
    const err = await failure(limits.assertAuthAllowed('203.0.113.9'));
    expect(err.headers).toMatchObject({ 'ratelimit-policy': '"auth";q=30;w=60', 'Retry-After': '60' });
    await limits.assertAuthAllowed('198.51.100.1');
    vi.advanceTimersByTime(60_000);
    await limits.assertAuthAllowed('203.0.113.9');
  });
});
