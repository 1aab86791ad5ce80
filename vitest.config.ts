import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Renderer modules import the contract as @shared/… (as in electron.vite.config.ts).
  resolve: { alias: { '@shared': fileURLToPath(new URL('electron/shared', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Model-backed tests are CPU heavy on a 2-core machine; keep files from starving each other.
    fileParallelism: false,
    pool: 'forks',
    // Worker threads started from the TypeScript source run it too (no build/ needed, none stale).
    execArgv: [
      '--import',
      fileURLToPath(new URL('test/support/ts-workers/register.mjs', import.meta.url)),
    ],
    // Under `npm run coverage`, the processes the tests start record their coverage too.
    setupFiles: ['test/support/child-coverage-setup.ts'],
  },
});
