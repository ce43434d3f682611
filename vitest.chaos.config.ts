// Vitest for the chaos drills only (`npm run test:chaos`): they start their own PostgreSQL, Redis, sandbox and
// replicas and run for a few minutes, so they stay out of `npm test`.
import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/chaos/**/*.chaos.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
