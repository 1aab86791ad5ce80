import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const COVERAGE = process.env.LABELDESK_COVERAGE === '1';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // Worker threads are entries of their own, emitted beside index.js where
        // requireWorkerScript looks for them (`new URL('./name.js', import.meta.url)`).
        input: {
          index: resolve('electron/main/index.ts'),
          'library-view-worker': resolve('electron/core/library-view/library-view-worker.ts'),
          'library-browse-worker': resolve('electron/core/library-view/library-browse-worker.ts'),
          'detect-worker': resolve('electron/local-service/engine/detect-worker.ts'),
          'evaluate-worker': resolve('electron/application/evaluation/evaluate-worker.ts'),
          // The library's read pool and a scan's writer; without them both fall back to this thread.
          'read-worker': resolve('electron/core/library/read-worker.ts'),
          'read-labels-worker': resolve('electron/core/import/read-labels-worker.ts'),
          'import-labels-worker': resolve('electron/application/import-labels-worker.ts'),
          'boxes-ahead-worker': resolve('electron/application/boxes-ahead-worker.ts'),
          'media-writer-worker': resolve('electron/core/store/media-writer-worker.ts'),
          'checkpoint-worker': resolve('electron/core/store/checkpoint-worker.ts'),
          'pull-worker': resolve('electron/core/team/pull-worker.ts'),
          'track-thread': resolve('electron/application/tracking/track-thread.ts'),
        },
        // Chunks beside the entries too: a chunk that starts a worker resolves it from its own URL.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed renderer loads only one CommonJS preload that requires nothing but `electron`.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    // The renderer reaches the contract as @shared/… (tsconfig.web.json's paths say the same).
    resolve: { alias: { '@shared': resolve('electron/shared') } },
    build: {
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
      // `npm run coverage` maps the browser's coverage back to renderer/src through source maps,
      // line by line, which a minified bundle (one long line) would blur into "all covered".
      sourcemap: COVERAGE,
      minify: !COVERAGE,
    },
    plugins: [react()],
  },
});
