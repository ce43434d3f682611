// Delivers bus messages to this process's handlers; a throwing handler must not starve the others.
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { BusHandler } from './bus.ts';

export interface LocalDelivery {
  deliver(channel: string, message: unknown): void;
  add(channel: string, handler: BusHandler): void;
  remove(channel: string, handler: BusHandler): void;
  count(channel: string): number;
  clear(): void;
}

export function createLocalDelivery(logger?: Pick<Logger, 'error'>): LocalDelivery {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const wrapped = new Map<BusHandler, BusHandler>();
  return {
    deliver(channel, message) {
      emitter.emit(channel, message);
    },
    add(channel, handler) {
      const safe: BusHandler = (message) => {
        try {
          handler(message);
        } catch (err) {
          logger?.error({ err, channel }, 'bus handler failed');
        }
      };
      wrapped.set(handler, safe);
      emitter.on(channel, safe);
    },
    remove(channel, handler) {
      const safe = wrapped.get(handler);
      if (safe === undefined) return;
      wrapped.delete(handler);
      emitter.off(channel, safe);
    },
    count: (channel) => emitter.listenerCount(channel),
    clear() {
      emitter.removeAllListeners();
      wrapped.clear();
    },
  };
}
