// `ratchet recover`: rebuilds the runs the store does not know from the repository's refs/ratchet/<run>/meta and
// state refs and its branches. A rebuilt run is put back as git kept it (restoreRunStatus): that is not a change it made.
import { RunReasonCode } from '../../../shared/domain';
import { reconcileWithGit } from './run-recovery';
import { branchExists, git, inspectRepo } from '../git/repo-git';
import { readRunMetas, readRunState } from '../git/run-refs';
import { adoptableWorktree } from '../git/worktree-integrity';
import type { Store } from '../store/store';
import { WorkflowFile } from '../workflow/schema';

const REBUILT = 'Rebuilt from git by `ratchet recover`: completed steps come from the branch; resume to continue.';

/** Rebuilds runs the store does not know from the repository's refs/ratchet/<run>/meta and branches (`ratchet recover`). */
export async function recoverRuns(store: Store, repoPath: string): Promise<{ rebuilt: string[]; known: string[]; branchesWithoutMeta: string[] }> {
  const repo = await inspectRepo(repoPath);
  // A record naming a folder that is not one of the repository's worktrees is not adopted (its branch is listed as without metadata).
  const metas = (await readRunMetas(repo.root)).filter((m) => adoptableWorktree(repo.root, m.worktree));
  const rebuilt: string[] = [];
  const known: string[] = [];
  for (const m of metas) {
    if (store.getRun(m.runId)) {
      known.push(m.runId);
      continue;
    }
    const parsed = WorkflowFile.safeParse(m.workflow);
    if (!parsed.success || !(await branchExists(repo.root, m.branch))) continue;
    store.createRun({
      runId: m.runId,
      repoPath: repo.root,
      repoName: repo.name,
      title: m.title,
      description: m.description,
      workflow: parsed.data,
      baseBranch: m.baseBranch,
      baseCommit: m.baseCommit,
      branch: m.branch,
      worktree: m.worktree,
    });
    const kept = await readRunState(repo.root, m.runId);
    if (kept) {
      // As it was when its process last let go of it: its attempts, then its steps and status (git still decides what is committed).
      for (const a of kept.attempts) store.restoreAttempt(m.runId, a);
      for (const st of kept.steps) if (st.status === 'failed' || st.status === 'skipped') store.setStepStatus(m.runId, st.index, st.status);
      const run = store.getRun(m.runId);
      if (run) await reconcileWithGit(store, run);
      const ended = ['succeeded', 'failed', 'cancelled'].includes(kept.status);
      const status = (['succeeded', 'failed', 'cancelled', 'paused'] as const).find((x) => x === kept.status) ?? 'interrupted';
      if (status === 'interrupted') store.restoreRunStatus(m.runId, status, REBUILT, { finished: ended, code: 'rebuilt_from_git' });
      else store.restoreRunStatus(m.runId, status, kept.reason, { finished: ended, code: RunReasonCode.safeParse(kept.reasonCode).data ?? null });
    } else {
      store.restoreRunStatus(m.runId, 'interrupted', REBUILT, { code: 'rebuilt_from_git' });
      const run = store.getRun(m.runId);
      if (run) await reconcileWithGit(store, run);
    }
    rebuilt.push(m.runId);
  }
  const branches = (await git(repo.root).raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads/ratchet/'])).split('\n').filter(Boolean);
  const withMeta = new Set(metas.map((m) => m.branch));
  return { rebuilt, known, branchesWithoutMeta: branches.filter((b) => !withMeta.has(b)) };
}
