import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Model-backed tests are CPU heavy on a 2-core machine; keep files from starving each other.
    fileParallelism: false,
    pool: 'forks',
  },
});
