// Vite config for the dev page (fake bridge): `vite build --config renderer/dev/vite.config.ts` then `vite preview` with the same config.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = new URL('.', import.meta.url).pathname;

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: { outDir: new URL('../../out/renderer-dev', import.meta.url).pathname, emptyOutDir: true, target: 'es2022' },
  preview: { port: 4178, strictPort: true, host: '127.0.0.1' },
});
