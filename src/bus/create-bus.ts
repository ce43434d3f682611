// Picks the bus implementation: Redis pub/sub when Redis is configured, in-process otherwise.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Bus } from './bus.ts';
import { createMemoryBus } from './memory-bus.ts';
import { createRedisBus } from './redis-bus.ts';

export interface CreateBusOptions {
  redis?: Redis;
  prefix?: string;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

export function createBus(options: CreateBusOptions = {}): Bus {
  return options.redis === undefined
    ? createMemoryBus({ logger: options.logger })
    : createRedisBus({ redis: options.redis, prefix: options.prefix, logger: options.logger });
}
