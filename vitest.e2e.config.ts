// End-to-end specs: Playwright (a Chromium e2e/find-browser.ts finds) driving the built renderer against a real headless host process.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Spec files run side by side: each starts its own host (port 0, its own RATCHET_HOME), scripted agent, repository,
    // team database and browser, and most of a spec's time is spent waiting on the agent's paced answers and on gates.
    // E2E_MAX_WORKERS (or --maxWorkers) overrides it.
    maxWorkers: Number(process.env.E2E_MAX_WORKERS) || 2,
  },
});
