// Tells running servers that a key was revoked or rotated, or that the catalogue changed, so their caches drop what
// is stale at once (within 1 s on every instance). Through Redis when REDIS_URL is set; without Redis the servers
// re-read keys and catalogue answers within 30 s.
import { BUS_CHANNELS } from '../bus/channels.ts';
import { createBus } from '../bus/create-bus.ts';
import { closeRedis, createRedis, waitForRedis } from '../cache/redis-connection.ts';
import type { Settings } from '../config/settings.ts';

/** The same namespace the servers' shared state uses (src/cache/shared-state.ts). */
const BUS_PREFIX = 'siteline:bus:';

export type Announcement = 'sent' | 'no-redis' | 'failed';

export function announceRevocation(settings: Settings, keyId: string): Promise<Announcement> {
  return announce(settings, BUS_CHANNELS.apiKeyRevoked, { keyId });
}

/** A CLI write to projects, grants, funnels or data sources: running servers drop their cached answers. */
export function announceCatalogueChange(settings: Settings, table: string): Promise<Announcement> {
  return announce(settings, BUS_CHANNELS.catalogueChanged, { table });
}

async function announce(settings: Settings, channel: string, message: unknown): Promise<Announcement> {
  if (!settings.REDIS_URL) return 'no-redis';
  const redis = await createRedis(settings.REDIS_URL, { name: 'siteline-cli' });
  try {
    if (!(await waitForRedis(redis, 2_000))) return 'failed';
    const bus = createBus({ redis, prefix: BUS_PREFIX });
    const { remote } = await bus.publish(channel, message);
    await bus.close();
    return remote === 'sent' ? 'sent' : 'failed';
  } finally {
    await closeRedis(redis);
  }
}

export function announcementNote(result: Announcement): string {
  if (result === 'sent') return 'Running servers were told through Redis.';
  if (result === 'no-redis') return 'Servers without Redis stop accepting it within 30 s.';
  return 'Could not reach Redis: servers stop accepting it within 30 s.';
}
