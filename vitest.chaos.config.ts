// Vitest for the chaos drills only (`npm run test:chaos`): they start their own PostgreSQL, Redis, sandbox and
// replicas and run for a few minutes, so they stay out of `npm test`. Everything else as in vitest.config.ts.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/chaos/**/*.chaos.ts'], testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false },
});
