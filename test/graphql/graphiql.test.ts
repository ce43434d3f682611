// GraphiQL (demo mode only) opens with the Portfolio query, so a first visitor runs a real typed query at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PORTFOLIO_QUERY } from '../../src/graphql/portfolio-query.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime({ env: { SITELINE_SANDBOX: 'auto' } });
});
afterAll(() => rt.dispose());

it('serves GraphiQL with the Portfolio query pre-filled', async () => {
  const res = await rt.request('/api/graphql', { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain(JSON.stringify(PORTFOLIO_QUERY).slice(1, 40));
  expect(html).toContain('query Portfolio');
});
