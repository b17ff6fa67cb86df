// The one rebase a git conflict gets: the run's branch onto its base branch's tip when the base moved, and the store told of the rebased steps.
import { branchTip, headCommit, isAncestor, rebaseOnto } from '../git/repo-git';
import { completedSteps } from '../git/step-commits';
import type { PinnedWorktree } from '../git/worktree-integrity';
import type { Store } from '../store/store';
import type { StepEvent } from './step-state';

/** Rebases step `index`'s worktree onto its base branch's tip, when the base moved since the run began. */
export async function rebaseStep(store: Store, runId: string, index: number, wt: PinnedWorktree): Promise<StepEvent> {
  const run = store.getRun(runId);
  const base = run?.base_branch ?? null;
  const tip = run && base ? await branchTip(run.repo_path, base) : null;
  if (!run || !base || !tip || tip === run.base_commit || (await isAncestor(wt, tip, 'HEAD'))) {
    return { type: 'rebased', moved: false, ok: false, base, onto: tip, files: [], newStart: null };
  }
  const r = await rebaseOnto(wt, tip);
  if (!r.ok) return { type: 'rebased', moved: true, ok: false, base, onto: tip, files: r.files, newStart: null };
  // The step starts from the rebased branch; the completed steps' commits are the rebased ones now.
  const newStart = await headCommit(wt);
  store.setRebased(runId, tip, index, newStart);
  for (const c of await completedSteps(run.repo_path, tip, run.branch)) store.adoptStep(runId, c.index, c.sha);
  return { type: 'rebased', moved: true, ok: true, base, onto: tip, files: [], newStart };
}
