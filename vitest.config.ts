// Vitest: unit and integration tests live next to the code they test.
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'bin/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The failing projects the failure corpus is recorded from (scripts/record-corpus/record.sh) fail on purpose.
    exclude: [...configDefaults.exclude, 'scripts/record-corpus/projects/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
