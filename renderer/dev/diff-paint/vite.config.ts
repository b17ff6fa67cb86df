// Vite config for bench P20's page (renderer/dev/diff-paint): built into the temp folder by the bench, served statically.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({ root: new URL('.', import.meta.url).pathname, base: './', plugins: [react()], logLevel: 'warn', build: { target: 'es2022' } });
