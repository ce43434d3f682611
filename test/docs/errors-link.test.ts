// The problem JSON `type` (/api/v1/errors#<code>) leads to the error table of the docs page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await createTestRuntime();
});
afterAll(() => rt.dispose());

describe('GET /api/v1/errors', () => {
  it('redirects to the docs page, whose error table has an anchor per code', async () => {
    const res = await rt.request('/api/v1/errors');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/api/v1/docs');
    const html = await (await rt.request('/api/v1/docs')).text();
    for (const code of ['invalid_parameter', 'not_found', 'upstream_credential_invalid']) expect(html).toContain(`id="${code}"`);
  });
});
