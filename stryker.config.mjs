// StrykerJS (`npm run test:mutation`): mutates the folders whose logic decides what users see and who may see
// it, runs the covering tests per mutant (vitest.mutation.config.ts), and reports the score per folder.
// One folder at a time: `npm run test:mutation -- --mutate 'src/cache/**/*.ts'`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: ['src/domain/**/*.ts', 'src/auth/**/*.ts', 'src/cache/**/*.ts', 'src/reports/**/*.ts'],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants) would each need the whole suite rerun: ~85% of the time for ~14% of
  // the mutants. They are reported as ignored, not as survivors.
  ignoreStatic: true,
  // The machine is shared and the suites start real runtimes: one test process at a time.
  concurrency: 1,
  timeoutMS: 5_000,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
