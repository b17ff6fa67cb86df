// Build layout (electron-vite): the Electron main process, the preload bridge, and the React renderer that the headless host serves too.
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/main/index.ts') },
        external: ['better-sqlite3'],
        // Chunks (the demo, the installed CLI) sit beside index.js, so paths relative to the bundle (../../resources) hold
        // for all of them; electron-builder.yml leaves the demo chunk out by this name.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot be an ES module and can require only a few electron modules:
      // one CommonJS file with the contract (and zod) bundled in, nothing left to require from node_modules.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
