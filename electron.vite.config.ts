import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: { rollupOptions: { input: { index: resolve('electron/main/index.ts') } } },
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
    build: { rollupOptions: { input: { index: resolve('renderer/index.html') } } },
    plugins: [react()],
  },
});
