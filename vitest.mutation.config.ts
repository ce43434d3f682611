// Vitest for `npm run test:mutation`: the suites that test src/domain, src/auth, src/cache and src/reports
// directly. The integration suites also run much of that code, but each of their files starts a runtime, and
// Stryker reruns every covering test file per mutant: with all of them a run takes hours. MUTATION_SUITES (a
// comma-separated list) adds some for the folder being mutated:
// - oauth: the in-process OAuth suites, for `--mutate 'src/auth/oauth/*.ts'` (they also reach src/auth's key code,
//   where they only slow the run down);
// - reports: the report-level integration suites, one file per report, each starting one sandbox runtime, for
//   `--mutate 'src/reports/…'`;
// - integration: all of test/app and test/graphql.
import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

const REPORT_SUITES = [
  'test/app/site-summary.test.ts',
  'test/app/site-metrics.test.ts',
  'test/app/search-summary.test.ts',
  'test/app/search-breakdown.test.ts',
  'test/app/search-timeseries.test.ts',
  'test/app/search-partial.test.ts',
  'test/app/landing-pages.test.ts',
  'test/app/comparison-history.test.ts',
  'test/app/funnel-results.test.ts',
  'test/app/raw-proxies.test.ts',
  'test/app/projects-endpoints.test.ts',
  'test/app/upstream-failures.test.ts',
];

const EXTRA_SUITES: Record<string, string[]> = {
  oauth: ['test/oauth/**/*.test.ts'],
  reports: REPORT_SUITES,
  integration: ['test/app/**/*.test.ts', 'test/graphql/**/*.test.ts'],
};

// Spread, not mergeConfig: that would concatenate `include` with the full suite's.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Stryker times each mutant itself (from the dry run); a loaded machine must not fail the dry run on scrypt.
    testTimeout: 60_000,
    include: [
      'test/domain/**/*.test.ts',
      'test/auth/**/*.test.ts',
      'test/cache/**/*.test.ts',
      'test/reports/**/*.test.ts',
      'test/mcp/confirmation-token.test.ts',
      'test/limits/**/*.test.ts',
      'test/bus/**/*.test.ts',
      ...(process.env.MUTATION_SUITES ?? '').split(',').flatMap((name) => EXTRA_SUITES[name.trim()] ?? []),
    ],
    // Drives Chromium through the whole MCP sign-in: seconds per run, and the in-process OAuth suites cover it.
    exclude: [...configDefaults.exclude, 'test/oauth/mcp-oauth-e2e.test.ts'],
  },
});
