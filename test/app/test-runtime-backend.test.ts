// The integration suites run on whichever backends the environment names (see test/helpers/test-runtime.ts):
// this proves a runtime really is on them, so a CI pass cannot quietly fall back to the embedded default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, TEST_RUNTIME_BACKEND, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await createTestRuntime();
});
afterAll(() => rt.dispose());

describe(`test runtime on ${TEST_RUNTIME_BACKEND}`, () => {
  it('stores in the database the environment names', () => {
    expect(rt.store.dialect).toBe(TEST_RUNTIME_BACKEND.includes('postgres') ? 'postgres' : 'sqlite');
  });

  it('shares state through Redis exactly when the environment names it', () => {
    expect(rt.shared.health().redis).toBe(TEST_RUNTIME_BACKEND.includes('redis') ? 'ok' : 'disabled');
  });

  it('answers a request end to end on those backends', async () => {
    const res = await rt.request('/readyz');
    expect(res.status).toBe(200);
  });
});
