// Test helper: one in-process sandbox per test file, created before the first test, with its fault switches and
// call counters cleared after each test.
import { afterEach, beforeAll } from 'vitest';
import { createSandbox, type Sandbox } from '../../../src/sandbox/sandbox.ts';

/** Usable at module level: property reads go to the sandbox once it exists. */
export function sharedSandbox(): Sandbox {
  let current: Sandbox | undefined;
  beforeAll(async () => {
    current = await createSandbox({ credentialsDir: null, env: {} });
  });
  afterEach(() => {
    current?.clearFaults();
    current?.resetStats();
  });
  return new Proxy({} as Sandbox, {
    get: (_target, key) => {
      if (!current) throw new Error('the shared sandbox is only ready inside tests');
      return Reflect.get(current, key) as unknown;
    },
  });
}
