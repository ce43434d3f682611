// The per-key concurrency cap: never more than `max` tasks at once per key, locally and across two instances
// sharing Redis; aborted waiters leave the queue.
import { describe, expect, it } from 'vitest';
import { createConcurrencyLimiter, SlotWaitTimeout, type ConcurrencyLimiter } from '../../src/limits/concurrency.ts';
import type { Redis } from 'ioredis';
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

describe('giving up and aborts', () => {
  it('never starts a task whose signal fired while it waited', async () => {
    const limiter = createConcurrencyLimiter({ max: 1 });
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    let started = false;
    await expect(limiter.run('k', async () => (started = true), controller.signal)).rejects.toThrow('deadline');
    expect(started).toBe(false);
  });

  it('gives up with SlotWaitTimeout when no slot frees in time, and the slot stays usable', async () => {
    const limiter = createConcurrencyLimiter({ max: 1, maxWaitMs: 30 });
    let release!: () => void;
    const first = limiter.run('k', () => new Promise<void>((resolve) => (release = resolve)));
    const error = await limiter.run('k', async () => 'ran').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlotWaitTimeout);
    expect((error as SlotWaitTimeout).retryAfterMs).toBeGreaterThan(0);
    release();
    await first;
    expect(await limiter.run('k', async () => 'next')).toBe('next');
  });
});

describe.skipIf(!REDIS_URL)('Redis concurrency limiter', () => {
  const prefix = () => `siteline-test:conc:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
  /** Two instances' connections to the shared Redis, ready, for `use`; closed after. */
  async function withTwoInstances(use: (a: Redis, b: Redis, p: string) => Promise<void>): Promise<void> {
    const a = await createRedis(REDIS_URL!);
    const b = await createRedis(REDIS_URL!);
    try {
      expect(await waitForRedis(a, 2000)).toBe(true);
      expect(await waitForRedis(b, 2000)).toBe(true);
      await use(a, b, prefix());
    } finally {
      await closeRedis(a);
      await closeRedis(b);
    }
  }

  it('keeps a lease alive past its TTL while the task runs (heartbeat), and releases it after', () =>
    withTwoInstances(async (a, b, p) => {
      const holder = createConcurrencyLimiter({ max: 1, redis: a, prefix: p, leaseMs: 150 });
      const other = createConcurrencyLimiter({ max: 1, redis: b, prefix: p, leaseMs: 150, maxWaitMs: 400 });
      let release!: () => void;
      const held = holder.run('prop', () => new Promise<void>((resolve) => (release = resolve)));
      // 400 ms of waiting is well past the 150 ms lease: only the heartbeat keeps the slot taken.
      await expect(other.run('prop', async () => 'ran')).rejects.toBeInstanceOf(SlotWaitTimeout);
      release();
      await held;
      expect(await a.zcard(`${p}prop`)).toBe(0);
      expect(await other.run('prop', async () => 'ran')).toBe('ran');
    }));

  it("frees a dead instance's slot within one lease", () =>
    withTwoInstances(async (a, b, p) => {
      const dying = createConcurrencyLimiter({ max: 1, redis: a, prefix: p, leaseMs: 200 });
      const survivor = createConcurrencyLimiter({ max: 1, redis: b, prefix: p, leaseMs: 200, maxWaitMs: 3000 });
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      void dying.run('prop', () => (started(), new Promise<void>(() => undefined))).catch(() => undefined);
      await running;
      a.disconnect(); // like kill -9: no release, no more heartbeats
      expect(await survivor.run('prop', async () => 'ran')).toBe('ran');
      await dying.close();
    }));

  it('releases every held lease on close (shutdown)', async () => {
    const a = await createRedis(REDIS_URL!);
    const p = prefix();
    try {
      expect(await waitForRedis(a, 2000)).toBe(true);
      const limiter = createConcurrencyLimiter({ max: 2, redis: a, prefix: p });
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      void limiter.run('prop', () => (started(), new Promise<void>(() => undefined)));
      await running;
      expect(await a.zcard(`${p}prop`)).toBe(1);
      await limiter.close();
      expect(await a.zcard(`${p}prop`)).toBe(0);
    } finally {
      await closeRedis(a);
    }
  });

  it('holds the cap across two instances sharing Redis', async () => {
    const a = await createRedis(REDIS_URL!);
    const b = await createRedis(REDIS_URL!);
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
