// Waiting, across instances, for the bus message a catalogue write sends (instead of sleeping): the other instance's
// caches are emptied before its handlers run, so once it heard the write, its next answer reflects it.
import { randomBytes } from 'node:crypto';
import { BUS_CHANNELS } from '../../src/bus/channels.ts';
import { deferred } from '../cache/redis-helpers.ts';
import type { TestRuntime } from './test-runtime.ts';

/**
 * Resolves `heard` once `listener` heard a write of `table` announced after this call. Earlier announcements are
 * drained first: Redis delivers one publisher's messages in order, so once a marker `publisher` sends now has
 * arrived, everything announced before it has too.
 */
export async function listenForCatalogueWrite(listener: Pick<TestRuntime, 'shared'>, publisher: Pick<TestRuntime, 'shared'>, table: string): Promise<{ heard: Promise<void> }> {
  const marker = `marker-${randomBytes(4).toString('hex')}`;
  const drained = deferred();
  const heard = deferred();
  let draining = true;
  const unsubscribe = await listener.shared.bus.subscribe(BUS_CHANNELS.catalogueChanged, (message) => {
    const name = (message as { table?: string }).table;
    if (name === marker) {
      draining = false;
      drained.resolve();
    } else if (name === table && !draining) heard.resolve();
  });
  await publisher.shared.bus.publish(BUS_CHANNELS.catalogueChanged, { table: marker });
  await drained.promise;
  return { heard: heard.promise.then(unsubscribe) };
}
