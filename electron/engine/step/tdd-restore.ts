// A test-first step's red test as the store keeps it (its attempt's outcome `red`, tree and gate results), for a retried or resumed step.
import { changedPaths, type GitPlace } from '../git/repo-git';
import type { FailedTest } from '../gates/parse-failures';
import type { Store } from '../store/store';
import type { AttemptRow } from '../store/store-rows';
import { isTestFile, type RedTest, type TddConfig } from './tdd';

/** The step's last `red` attempt, and the attempts after it (the ones a retry's prompt may carry a failure from). */
export function splitAtRed<T extends Pick<AttemptRow, 'n' | 'outcome'>>(rows: readonly T[], tdd: TddConfig | null): { red: T | null; after: readonly T[] } {
  const red = tdd ? (rows.filter((r) => r.outcome === 'red').at(-1) ?? null) : null;
  return { red, after: red ? rows.filter((r) => r.n > red.n) : rows };
}

/** The red test of a stored attempt: its test files (from its tree), its failing tests and gate output. */
export async function storedRed(store: Store, place: GitPlace, stepStart: string, row: AttemptRow, tdd: TddConfig): Promise<RedTest> {
  const gate = store.getGateResults(row.id).find((g) => !g.passed);
  const changed = row.tree_sha ? await changedPaths(place, stepStart, row.tree_sha).catch(() => []) : [];
  return {
    n: row.n,
    testFiles: changed.filter((f) => isTestFile(f, tdd.tests)),
    failures: JSON.parse(row.failures_json) as FailedTest[],
    output: (gate?.output ?? '').slice(-8000),
    gate: gate?.gate ?? null,
    tree: row.tree_sha,
  };
}
