// GraphiQL for development (the demo mode): the page is rendered by a bundle loaded on its first request, and only
// when enabled; a browser GET without it gets the endpoint's ordinary answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

const html = { accept: 'text/html' };
let demo: TestRuntime;
let production: TestRuntime;

beforeAll(async () => {
  [demo, production] = await Promise.all([createTestRuntime({ env: { SITELINE_SANDBOX: 'auto' } }), createTestRuntime()]);
});
afterAll(() => Promise.all([demo.dispose(), production.dispose()]));

describe('GraphiQL', () => {
  it('serves the page in demo mode, the same page again from the loaded bundle', async () => {
    const first = await demo.request('/api/graphql', { headers: html });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/html');
    const page = await first.text();
    expect(page).toContain('<title>Siteline GraphQL</title>');
    expect(page).toContain('Bearer <your API key>');
    const second = await demo.request('/api/graphql', { headers: html });
    expect(await second.text()).toBe(page);
  });

  it('is not served when disabled: a browser GET needs credentials like any other', async () => {
    const res = await production.request('/api/graphql', { headers: html });
    expect(res.status).toBe(401);
  });
});
