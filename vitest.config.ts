// Vitest: unit and integration tests live next to the code they test.
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'bin/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The failing projects the failure corpus is recorded from (scripts/record-corpus/record.sh) fail on purpose.
    exclude: [...configDefaults.exclude, 'scripts/record-corpus/projects/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The stylesheet reaches renderer tests as text (`styles.css?raw`) so they can read the app's own rules without Node;
    // every other CSS import stays an empty module.
    css: { include: [/renderer\/src\/styles\.css/] },
    // More test files at once than cores: most of the suite's time is spent waiting on child processes (git, the sandbox,
    // the CLI, PostgreSQL), not computing. Vitest's default (cores - 1) ran the suite one file at a time on CI's 2 cores.
    // VITEST_MAX_WORKERS (or --maxWorkers) overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, Math.round(availableParallelism() * 1.5)),
  },
});
