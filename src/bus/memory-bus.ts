// Single-instance bus: without Redis there is no other instance to reach.
import type { Logger } from 'pino';
import type { Bus } from './bus.ts';
import { createLocalDelivery } from './local-delivery.ts';

export function createMemoryBus(options: { logger?: Pick<Logger, 'error'> } = {}): Bus {
  const local = createLocalDelivery(options.logger);
  return {
    async publish(channel, message) {
      local.deliver(channel, message);
      return { remote: 'local' };
    },
    async subscribe(channel, handler) {
      local.add(channel, handler);
      return async () => local.remove(channel, handler);
    },
    async close() {
      local.clear();
    },
  };
}
