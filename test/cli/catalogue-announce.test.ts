// A `siteline` command that changes the catalogue tells running servers through Redis: a grant made with the CLI
// shows in the server's next answer although the server had that answer cached.
import { describe, expect, it } from 'vitest';
import { BUS_CHANNELS } from '../../src/bus/channels.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import { deferred } from '../cache/redis-helpers.ts';
import { createAccountWithKey, createTestRuntime } from '../helpers/test-runtime.ts';
import { runSiteline } from './run.ts';

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('catalogue writes by the CLI with Redis', () => {
  it('empty the cached answers of a running server', async () => {
    const rt = await createTestRuntime({ env: { REDIS_URL: REDIS_URL! } });
    try {
      await createProject(rt.store.db, { key: 'blog', name: 'Blog', domain: 'blog.example' });
      const { key } = await createAccountWithKey(rt, { email: 'cli-grant@example.com', projects: ['shop'] });
      const keys = async () => ((await (await rt.request('/api/v1/projects/list', { key })).json()) as { projects: { key: string }[] }).projects.map((p) => p.key);
      expect(await keys()).toEqual(['shop']);
      const heard = deferred();
      await rt.shared.bus.subscribe(BUS_CHANNELS.catalogueChanged, (message) => {
        if ((message as { table?: string }).table === 'account_projects') heard.resolve();
      });
      const granted = await runSiteline(['projects', 'grant', 'blog', '--account', 'cli-grant@example.com', '--json'], { ...rt.cliEnv, REDIS_URL: REDIS_URL! });
      expect(granted.code).toBe(0);
      await heard.promise;
      expect(await keys()).toEqual(['blog', 'shop']);
    } finally {
      await rt.dispose();
    }
  });
});
