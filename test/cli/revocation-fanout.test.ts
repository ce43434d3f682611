// `siteline keys revoke` reaches a running server through Redis: the server stops accepting the key at once,
// though its cache had already verified it.
import { describe, expect, it } from 'vitest';
import { BUS_CHANNELS } from '../../src/bus/channels.ts';
import { createAccountWithKey, createTestRuntime } from '../helpers/test-runtime.ts';
import { runSiteline } from './run.ts';

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('keys revoke with Redis', () => {
  it('drops the key from a running server as soon as the message arrives', async () => {
    const rt = await createTestRuntime({ env: { REDIS_URL: REDIS_URL! } });
    try {
      const { key, keyId } = await createAccountWithKey(rt, { email: 'fanout@example.com', projects: ['shop'] });
      expect((await rt.request('/api/v1/projects/list', { key })).status).toBe(200); // now cached as verified
      // The server's own revocation handler subscribed first, so once this one hears the message the key is dropped.
      const heard = Promise.withResolvers<unknown>();
      await rt.shared.bus.subscribe(BUS_CHANNELS.apiKeyRevoked, heard.resolve);
      const revoked = await runSiteline(['keys', 'revoke', keyId, '--account', 'fanout@example.com', '--json'], { ...rt.cliEnv, REDIS_URL: REDIS_URL! });
      expect(revoked.code).toBe(0);
      expect(revoked.json()).toMatchObject({ announced: 'sent' });
      expect(await heard.promise).toEqual({ keyId });
      expect((await rt.request('/api/v1/projects/list', { key })).status).toBe(401);
    } finally {
      await rt.dispose();
    }
  });
});
