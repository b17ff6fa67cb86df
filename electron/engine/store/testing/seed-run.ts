// Test helper: a run row in a store, without git (for tests of the store alone).
import { WorkflowFile } from '../../workflow/schema';
import { newId, type Store } from '../store';

export function seedRun(store: Store, steps = 2): string {
  const runId = newId();
  store.createRun({
    runId,
    repoPath: `/repo/${runId}`,
    repoName: 'repo',
    title: 'Seeded',
    description: '',
    workflow: WorkflowFile.parse({ steps: Array.from({ length: steps }, (_, i) => ({ title: `step ${i + 1}` })) }),
    baseBranch: 'main',
    baseCommit: '0'.repeat(40),
    branch: `ratchet/seeded-${runId}`,
    worktree: `/tmp/wt-${runId}`,
  });
  return runId;
}
