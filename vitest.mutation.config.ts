// Vitest for `npm run test:mutation`: the suites that test src/domain, src/auth, src/cache and src/reports
// directly. The integration suites (test/app, test/graphql, …) also run much of that code, but each of their files
// starts a runtime and a sandbox, and Stryker reruns every covering test per mutant: with them a run takes hours.
// MUTATION_SUITES=integration adds the report-level integration suites (for `--mutate 'src/reports/**/*.ts'`).
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// Spread, not mergeConfig: that would concatenate `include` with the full suite's.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'test/domain/**/*.test.ts',
      'test/auth/**/*.test.ts',
      'test/cache/**/*.test.ts',
      'test/reports/**/*.test.ts',
      'test/mcp/confirmation-token.test.ts',
      'test/limits/**/*.test.ts',
      'test/bus/**/*.test.ts',
      ...(process.env.MUTATION_SUITES === 'integration' ? ['test/app/**/*.test.ts', 'test/graphql/**/*.test.ts'] : []),
    ],
  },
});
