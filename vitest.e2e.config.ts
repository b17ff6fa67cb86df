// End-to-end specs: Playwright (a Chromium e2e/find-browser.ts finds) driving the built renderer against a real headless host process.
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The spec files that take longest, longest first: started first, so the phase does not end on one long file running
 * alone while the other worker idles. A clean clone has no timings of earlier runs for vitest to order by.
 */
const LONGEST_FIRST = [
  'team',
  'packaging',
  'demo',
  'dashboard',
  'screens',
  'retry-and-resume',
  'run-actions',
  'new-task-project',
  'pr-panel',
  'queue',
  'app-truth',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}.e2e.test.ts`));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One Chromium for the phase (e2e/browser-server.ts); each spec file connects to it.
    globalSetup: ['e2e/browser-server.ts'],
    sequence: { sequencer: LongestFirst },
    // Spec files run side by side: each starts its own host (port 0, its own RATCHET_HOME), scripted agent, repository and
    // team database, and most of a spec's time is spent waiting on runs and gates. E2E_MAX_WORKERS (or --maxWorkers) overrides it.
    maxWorkers: Number(process.env.E2E_MAX_WORKERS) || 2,
  },
});
