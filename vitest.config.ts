// Vitest: tests mirror src/; integration tests run the app in-process against the in-process sandbox.
import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module); Node and the externalised libraries (Pothos, Yoga) load the
    // CJS build, so the tests must too, or the schema comes from "another module or realm".
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Names the run's PostgreSQL schemas and drops them when every file is done (see the file).
    globalSetup: ['test/helpers/global-setup.ts'],
    // Passwords hash at a low scrypt cost in tests (see the file); one test pins the production parameters.
    setupFiles: ['test/helpers/password-cost.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Closing the workers and servers after the last file: past this vitest says what still runs and exits,
    // instead of waiting on an open handle (CI also bounds each pass with `timeout`, see .ci/test-passes).
    teardownTimeout: 20_000,
    pool: 'forks',
    // Test files share their worker's module cache instead of re-importing the app per file: the suite holds no
    // module-level state between files (every test builds its own runtime, stores, caches and clocks; fake timers
    // are restored), and a shuffled order stays green. Several times faster on 2 cores.
    isolate: false,
  },
});
