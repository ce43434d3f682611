// Test helpers for suites that need a real Redis (TEST_REDIS_URL): skip when unset, unique key prefixes, cleanup.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { closeRedis, createRedis, waitForRedis } from '../../src/cache/redis-connection.ts';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

/** A port where nothing listens: connections are refused at once. */
export const DEAD_REDIS_URL = 'redis://127.0.0.1:1/0';

export function uniquePrefix(): string {
  return `siteline-test:${randomUUID()}:`;
}

export async function connectTestRedis(url = TEST_REDIS_URL): Promise<Redis> {
  if (url === undefined) throw new Error('TEST_REDIS_URL is not set');
  const redis = await createRedis(url, { name: 'siteline-test' });
  if (!(await waitForRedis(redis, 5_000))) throw new Error(`Redis at ${url} is not reachable`);
  return redis;
}

export async function deleteByPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export function manualClock(start = 1_800_000_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void; reject(err: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Two connections to the test Redis, as two instances have, under one fresh key prefix: opened before the suite's
 * tests, closed (and the prefix's keys deleted) after them. Read `one` and `two` inside tests.
 */
export function useTwoInstancesRedis(): { readonly one: Redis; readonly two: Redis; readonly prefix: string } {
  const state = { one: undefined as Redis | undefined, two: undefined as Redis | undefined, prefix: uniquePrefix() };
  beforeAll(async () => {
    [state.one, state.two] = await Promise.all([connectTestRedis(), connectTestRedis()]);
  });
  afterAll(async () => {
    if (state.one) await deleteByPrefix(state.one, state.prefix);
    await Promise.all([state.one, state.two].map((r) => (r ? closeRedis(r) : undefined)));
  });
  return {
    get one() {
      return state.one!;
    },
    get two() {
      return state.two!;
    },
    prefix: state.prefix,
  };
}
