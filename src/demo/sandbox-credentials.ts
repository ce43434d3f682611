// The credential files a sandbox writes into its credentials dir, read back for seeding the demo projects.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DemoCredentials } from './seed-demo.ts';

/** The files `siteline sandbox` writes; an external sandbox may still be writing them, so wait a little. */
export async function readSandboxCredentials(dir: string, waitMs = 0): Promise<DemoCredentials> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const [serviceAccountJson, oauthClientJson, bingApiKey] = await Promise.all([
        readFile(join(dir, 'service-account.json'), 'utf8'),
        readFile(join(dir, 'oauth-client.json'), 'utf8'),
        readFile(join(dir, 'bing-api-key.txt'), 'utf8'),
      ]);
      return { serviceAccountJson, oauthClientJson, bingApiKey: bingApiKey.trim() };
    } catch (error) {
      if (Date.now() >= deadline) throw new Error(`Sandbox credentials not found in ${dir}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * The credentials a sandbox once wrote into this data folder, when it is off now: calls made with them are refused
 * instead of going to the real providers. Undefined when the folder never held a sandbox.
 */
export async function readRetiredSandboxCredentials(dataDir: string): Promise<DemoCredentials | undefined> {
  return readSandboxCredentials(join(dataDir, 'sandbox-credentials')).catch(() => undefined);
}
