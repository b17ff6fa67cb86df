// `ratchet recover`: rebuilds the runs the store does not know from the repository's refs/ratchet/<run>/meta and
// state refs and its branches. A rebuilt run is put back as git kept it (restoreRunStatus): that is not a change it made.
import { RunReasonCode } from '../../../shared/domain';
import { reconcileWithGit } from './run-recovery';
import { branchExists, git, inspectRepo, resetHard } from '../git/repo-git';
import { pinWorktree } from '../git/worktree-integrity';
import type { RunRow } from '../store/store-rows';
import { readRunMetas, readRunState, type RunMeta } from '../git/run-refs';
import { adoptableWorktree } from '../git/worktree-integrity';
import type { Store } from '../store/store';
import { WorkflowFile } from '../workflow/schema';

const REBUILT = 'Rebuilt from git by `ratchet recover`: completed steps come from the branch; resume to continue.';

/**
 * Rebuilds one run the store does not know from its meta and state refs and its branch: as git kept it (its attempts,
 * steps, status; git decides what is committed). `worktree`: where the run's worktree is here when it is not the one the
 * meta names (a team run taken over by another worker, which makes it there first); `interrupted`: the reason a run
 * whose process let go of it mid-way is interrupted for. False when the meta's workflow or branch is not usable.
 */
export async function rebuildRun(
  store: Store,
  repo: { root: string; name: string },
  m: RunMeta,
  opts: { worktree?: string; interrupted?: { reason: string; code: RunReasonCode } } = {},
): Promise<boolean> {
  const parsed = WorkflowFile.safeParse(m.workflow);
  if (!parsed.success || !(await branchExists(repo.root, m.branch))) return false;
  const interrupted = opts.interrupted ?? { reason: REBUILT, code: 'rebuilt_from_git' as const };
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
    worktree: opts.worktree ?? m.worktree,
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
    if (status === 'interrupted') store.restoreRunStatus(m.runId, status, interrupted.reason, { finished: ended, code: interrupted.code });
    else store.restoreRunStatus(m.runId, status, kept.reason, { finished: ended, code: RunReasonCode.safeParse(kept.reasonCode).data ?? null });
  } else {
    store.restoreRunStatus(m.runId, 'interrupted', interrupted.reason, { code: interrupted.code });
    const run = store.getRun(m.runId);
    if (run) await reconcileWithGit(store, run);
  }
  return true;
}

/**
 * Brings a run this store knows to `tip`, its branch as another process pushed it (a team worker that pushed a step
 * first): the worktree reset to it, the attempts its state ref has and this store lacks taken (the process that made
 * them pushed them), the steps reconciled with the branch; a run this store thought finished goes back to interrupted
 * when the branch has fewer steps.
 */
export async function adoptBranchTip(store: Store, run: RunRow, tip: string): Promise<void> {
  await resetHard(pinWorktree(run.repo_path, run.worktree), tip);
  const kept = await readRunState(run.repo_path, run.id);
  const known = new Set(store.getAttempts(run.id).map((a) => `${a.step_index}/${a.n}`));
  for (const a of kept?.attempts ?? []) if (!known.has(`${a.step}/${a.n}`)) store.restoreAttempt(run.id, a);
  await reconcileWithGit(store, run);
  const steps = store.getSteps(run.id);
  if (store.getRun(run.id)?.status === 'succeeded' && steps.some((st) => st.status !== 'succeeded' && st.status !== 'skipped'))
    store.restoreRunStatus(run.id, 'interrupted', 'Its branch has fewer steps than this process had: it goes on from the branch.', {
      code: 'rebuilt_from_git',
    });
}

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
    if (await rebuildRun(store, repo, m)) rebuilt.push(m.runId);
  }
  const branches = (await git(repo.root).raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads/ratchet/'])).split('\n').filter(Boolean);
  const withMeta = new Set(metas.map((m) => m.branch));
  return { rebuilt, known, branchesWithoutMeta: branches.filter((b) => !withMeta.has(b)) };
}
