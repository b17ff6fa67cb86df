// Vitest: unit and integration tests live next to the code they test.
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that take a minute or more, longest first. They start first, so none is left to finish alone after the
 * rest: vitest orders files by the last run's times when it has them (node_modules/.vite/vitest), but a clean clone (CI)
 * has none and orders by file size, largest first — which started the real-project files (20 lines each, up to two
 * minutes each) and the PR loop's and team runs' files (2–7 KB, a minute each) among the very last. A folder (ending in
 * /) ranks all its files. A file that got faster only starts early; a new file that takes a minute or more belongs here.
 */
export const LONG_FIRST = [
  // Measured one file per worker at load 30–35 (about six times a quiet machine's figures): 762 s, ≥ 614, 545, ≥ 321, 296, ≥ 239.
  'electron/cli/real-projects/python-package.test.ts',
  'electron/cli/real-projects/ts-lint-library.test.ts',
  'electron/cli/real-projects/pnpm-workspace.test.ts',
  'electron/cli/kill-resume.test.ts',
  'electron/cli/real-projects/npm-library.test.ts',
  'electron/cli/mcp-server.test.ts',
  // go-module 107 s, rust-crate 59 s at that load; c-unity is skipped without RATCHET_UNITY_DIR.
  'electron/cli/real-projects/',
  'electron/cli/team-kill.test.ts',
  // Half a minute to a minute each on a quiet machine (the PR loop was one file of 147–247 s; team runs one file of 11
  // tests). Team files alternate with the PR loop's, which mostly wait: two team files side by side under load pushed
  // their tests to the 120 s limit (each passes alone in 46–68 s at load 23).
  'electron/cli/pr-loop-rerun.test.ts',
  'electron/cli/team-run.test.ts',
  'electron/cli/pr-loop-merge.test.ts',
  'electron/cli/team-run-steer.test.ts',
  'electron/cli/pr-loop-stop.test.ts',
  'electron/cli/team-run-workers.test.ts',
  'electron/cli/pr-loop-review.test.ts',
  'electron/engine/review/review-round.test.ts',
  'electron/engine/service/service-pr.test.ts',
  // A minute or two each under load: the app's PR loop through the service, schedules across real hosts and team workers.
  'electron/engine/service/service-pr-loop.test.ts',
  'electron/cli/schedule-hosts.test.ts',
  'electron/cli/team-schedule.test.ts',
];

/** Vitest's order, with LONG_FIRST's files moved to the front in that list's order. */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const file = relative(spec.project.config.root, spec.moduleId).split('\\').join('/');
      const i = LONG_FIRST.findIndex((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // Array.prototype.sort is stable: within a rank, vitest's own order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'bin/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The failing projects the failure corpus is recorded from (scripts/record-corpus/record.sh) fail on purpose.
    exclude: [...configDefaults.exclude, 'scripts/record-corpus/projects/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    sequence: { sequencer: LongFirstSequencer },
    // The stylesheet reaches renderer tests as text (`styles.css?raw`) so they can read the app's own rules without Node;
    // every other CSS import stays an empty module.
    css: { include: [/renderer\/src\/styles\.css/] },
    // More test files at once than cores: most of the suite's time is spent waiting on child processes (git, the sandbox,
    // the CLI, PostgreSQL), not computing. Vitest's default (cores - 1) ran the suite one file at a time on CI's 2 cores.
    // VITEST_MAX_WORKERS (or --maxWorkers) overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, Math.round(availableParallelism() * 1.5)),
  },
});
