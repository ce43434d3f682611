// The OpenAPI document's request examples work as sent against the demo (its property ids and site URLs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_ROUTES } from '../../src/rest/route-table.ts';
import { REQUEST_SCHEMAS } from '../../src/openapi/response-schemas.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

describe('request examples', () => {
  it.each(REST_ROUTES.filter((r) => r.bodyVariable !== undefined).map((r) => [r.path, r.operation]))('%s answers 200 to its example', async (path, operation) => {
    const example = REQUEST_SCHEMAS[operation]!.example;
    const res = await rt.request(path, { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify(example) });
    expect(res.status, await res.clone().text()).toBe(200);
  });
});
