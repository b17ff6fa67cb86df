// End-to-end specs: Playwright (a Chromium e2e/find-browser.ts finds) driving the built renderer against a real headless host process.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
