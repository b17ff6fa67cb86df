// Build layout (electron-vite): the Electron main process, the preload bridge, and the React renderer that the headless host serves too.
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

/** The renderer's build, exported for scripts/renderer-bundle.test.ts, which checks what the entry chunk holds. */
export const rendererConfig = {
  root: resolve(__dirname, 'renderer'),
  plugins: [react()],
  build: {
    outDir: resolve(__dirname, 'out/renderer'),
    // Minified, and split: screens imported with import() (the dashboard and its charts) are chunks of their own.
    minify: true,
    rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
  },
};

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // The stats worker beside the main chunks, where the service starts it from (electron/engine/stats/stats-reader.ts).
        input: { index: resolve(__dirname, 'electron/main/index.ts'), 'stats-worker': resolve(__dirname, 'electron/engine/stats/stats-worker.ts') },
        // Loaded from node_modules at run time, never bundled: better-sqlite3 for its native module, sandbox-runtime
        // because it finds its vendor/ helpers (apply-seccomp, the Java proxy agent) relative to its own files.
        // (Dependencies are external by default; naming them keeps it so should one move to devDependencies.)
        external: ['better-sqlite3', '@anthropic-ai/sandbox-runtime', /^@anthropic-ai\/sandbox-runtime\//],
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
  renderer: rendererConfig,
});
