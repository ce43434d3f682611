// The per-key concurrency cap: never more than `max` tasks at once per key, locally and across two instances
// sharing Redis; aborted waiters leave the queue.
import { describe, expect, it } from 'vitest';
import { createConcurrencyLimiter, type ConcurrencyLimiter } from '../../src/limits/concurrency.ts';
import { closeRedis, createRedis, waitForRedis } from '../../src/cache/redis-connection.ts';

const REDIS_URL = process.env.TEST_REDIS_URL;

async function peakConcurrency(limiters: ConcurrencyLimiter[], key: string, tasks: number): Promise<number> {
  let active = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: tasks }, (_, i) =>
      limiters[i % limiters.length]!.run(key, async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 15));
        active--;
      }),
    ),
  );
  return peak;
}

describe('local concurrency limiter', () => {
  it('runs at most max tasks per key at once, and all of them eventually', async () => {
    const limiter = createConcurrencyLimiter({ max: 3 });
    expect(await peakConcurrency([limiter], 'p1', 20)).toBe(3);
  });

  it('keeps keys independent', async () => {
    const limiter = createConcurrencyLimiter({ max: 1 });
    let active = 0;
    let peak = 0;
    const task = async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 10));
      active--;
    };
    await Promise.all([limiter.run('a', task), limiter.run('b', task)]);
    expect(peak).toBe(2);
  });

  it('drops an aborted waiter', async () => {
    const limiter = createConcurrencyLimiter({ max: 1 });
    let release!: () => void;
    const first = limiter.run('k', () => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const waiting = limiter.run('k', async () => 'ran', controller.signal);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    release();
    await first;
    expect(await limiter.run('k', async () => 'next')).toBe('next');
  });
});

describe.skipIf(!REDIS_URL)('Redis concurrency limiter', () => {
  it('holds the cap across two instances sharing Redis', async () => {
    const a = createRedis(REDIS_URL!);
    const b = createRedis(REDIS_URL!);
    const prefix = `siteline-test:conc:${Date.now()}:`;
    try {
      expect(await waitForRedis(a, 2000)).toBe(true);
      expect(await waitForRedis(b, 2000)).toBe(true);
      const limiters = [createConcurrencyLimiter({ max: 2, redis: a, prefix }), createConcurrencyLimiter({ max: 2, redis: b, prefix })];
      expect(await peakConcurrency(limiters, 'prop', 12)).toBe(2);
    } finally {
      await closeRedis(a);
      await closeRedis(b);
    }
  });
});
