// GET /: a browser is sent to the dashboard, a script gets an index of the surfaces that it can follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await createTestRuntime();
});
afterAll(() => rt.dispose());

describe('GET /', () => {
  it('sends a browser to the dashboard', async () => {
    const res = await rt.request('/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
  });

  it('gives a script an index whose links all answer', async () => {
    const res = await rt.request('/');
    expect(res.status).toBe(200);
    const index = (await res.json()) as { name: string; links: Record<string, string> };
    expect(index.name).toBe('Siteline');
    const links = Object.entries(index.links);
    expect(links.map(([name]) => name)).toEqual(expect.arrayContaining(['docs', 'openapi', 'mcp', 'graphql', 'dashboard']));
    for (const [name, path] of links.filter(([name]) => ['docs', 'openapi', 'health', 'dashboard'].includes(name))) {
      expect([200, 302], name).toContain((await rt.request(path)).status);
    }
  });

  it('is read-only like every other document', async () => {
    expect((await rt.request('/', { method: 'POST' })).status).toBe(405);
  });
});
