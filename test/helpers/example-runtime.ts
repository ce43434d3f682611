// The demo runtime the docs examples are recorded from (and re-recorded by the drift test): the in-process sandbox
// with the demo seeded, plus the example funnel the docs' funnel requests name.
import { PARAMETERS } from '../../src/contract/parameters.ts';
import { createFunnel } from '../../src/store/funnels-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { createSandboxRuntime, type SandboxRuntime } from './sandbox-runtime.ts';

export const EXAMPLES_FILE = 'src/openapi/recorded-examples.json';

export async function createExampleRuntime(): Promise<SandboxRuntime & { funnelKey: string }> {
  const rt = await createSandboxRuntime({ shared: { limits: { request: { name: 'default', points: 1_000_000, windowSec: 60 }, burst: { name: 'burst', points: 1_000_000, windowSec: 1 } } } });
  const shop = await getProjectByKey(rt.store.db, 'acme-shop');
  const funnelKey = PARAMETERS.funnel.example;
  await createFunnel(rt.store.db, {
    projectId: shop!.id,
    key: funnelKey,
    name: 'Checkout',
    createdVia: 'cli',
    steps: [
      { name: 'Product page', type: 'page', match: 'begins_with', value: '/products/' },
      { name: 'Purchase', type: 'event', match: 'exact', value: 'purchase' },
    ],
  });
  return Object.assign(rt, { funnelKey });
}
