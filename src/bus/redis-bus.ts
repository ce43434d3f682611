// Cross-instance bus over Redis pub/sub; local subscribers are served directly so they never depend on Redis.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Bus } from './bus.ts';
import { createLocalDelivery } from './local-delivery.ts';

export interface RedisBusOptions {
  /** Publishing connection (shared with the cache); the bus opens its own subscriber connection from it. */
  redis: Redis;
  /** Channel namespace, e.g. `siteline:bus:`. */
  prefix?: string;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

const SUBSCRIBE_WAIT_MS = 2_000;

interface Envelope {
  from: string;
  message: unknown;
}

export function createRedisBus(options: RedisBusOptions): Bus {
  const { redis } = options;
  const prefix = options.prefix ?? 'siteline:bus:';
  const instance = randomUUID();
  const local = createLocalDelivery(options.logger);
  // A subscribed connection cannot run other commands. Unlike the command connection it queues while
  // offline, so subscribing right after start works, and ioredis re-subscribes after a reconnect.
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  subscriber.on('error', () => undefined); // outages are logged by the command connection

  subscriber.on('message', (fullChannel: string, raw: string) => {
    if (!fullChannel.startsWith(prefix)) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      options.logger?.warn({ channel: fullChannel }, 'bus message is not JSON; dropped');
      return;
    }
    // Our own messages were already delivered locally at publish time.
    if (envelope.from === instance) return;
    local.deliver(fullChannel.slice(prefix.length), envelope.message);
  });

  return {
    async publish(channel, message) {
      local.deliver(channel, message);
      try {
        if (redis.status !== 'ready') throw new Error(`redis ${redis.status}`);
        await redis.publish(prefix + channel, JSON.stringify({ from: instance, message } satisfies Envelope));
        return { remote: 'sent' };
      } catch (err) {
        options.logger?.warn({ err, channel }, 'bus message reached this instance only');
        return { remote: 'failed' };
      }
    },
    async subscribe(channel, handler) {
      const first = local.count(channel) === 0;
      local.add(channel, handler);
      if (first) {
        const live = subscriber.subscribe(prefix + channel).catch((err: unknown) => {
          options.logger?.warn({ err, channel }, 'bus subscription failed; only local messages reach this handler');
        });
        // Redis away must not hang the caller: the queued SUBSCRIBE runs once the subscriber reconnects.
        if (redis.status === 'ready' || subscriber.status === 'ready') await Promise.race([live, delay(SUBSCRIBE_WAIT_MS)]);
      }
      return async () => {
        local.remove(channel, handler);
        if (local.count(channel) > 0) return;
        const done = subscriber.unsubscribe(prefix + channel).catch(() => undefined);
        if (subscriber.status === 'ready') await done;
      };
    },
    async close() {
      local.clear();
      subscriber.disconnect();
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
