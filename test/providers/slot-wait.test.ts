// A provider call that cannot get a concurrency slot in time is shed with 503 upstream_unavailable and a
// Retry-After, once (no retries, no breaker trip), and the call holding the slot is unaffected.
import { describe, expect, it } from 'vitest';
import { createConcurrencyLimiter } from '../../src/limits/concurrency.ts';
import { createResilience } from '../../src/providers/resilience.ts';
import { networkVerdict } from '../../src/providers/upstream-errors.ts';

describe('waiting for a GA concurrency slot', () => {
  it('gives up with 503 + Retry-After instead of an error or a crash', async () => {
    const limiter = createConcurrencyLimiter({ max: 1, maxWaitMs: 30 });
    const resilience = createResilience({ backoffInitialMs: 1, backoffMaxMs: 1 }, { concurrencyFor: () => limiter });
    let release!: () => void;
    let attempts = 0;
    const call = (attempt: () => Promise<string>) =>
      resilience.execute({ source: 'analytics', operation: 'runReport', target: '123', credentialId: 'c', attempt, classify: () => networkVerdict('analytics') });
    const holder = call(() => new Promise<string>((resolve) => (release = () => resolve('held'))));
    const shed = await call(async () => {
      attempts++;
      return 'ran';
    }).catch((error: unknown) => error);
    expect(shed).toMatchObject({ code: 'upstream_unavailable', status: 503, provider: 'analytics' });
    expect((shed as { headers: Record<string, string> }).headers['Retry-After']).toMatch(/^\d+$/);
    expect(attempts).toBe(0);
    release();
    expect(await holder).toBe('held');
  });
});
