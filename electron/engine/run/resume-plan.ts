// Pure resume plan for an interrupted or stopped run: where to continue, why, and what must be fixed first.
import type { RunStatus, StepStatus } from '../../../shared/domain';
import type { RecoveryOption, RequiredAction, ResumePlan } from '../../../shared/contract';

export interface ResumeFacts {
  status: RunStatus;
  reason: string | null;
  steps: ReadonlyArray<{
    index: number;
    title: string;
    status: StepStatus;
    commit: string | null;
    phase?: string | null;
    attempts: number;
    lastError: string | null;
  }>;
  worktreeExists: boolean;
  branchExists: boolean;
  /** The branch checked out in the worktree (null: detached or no worktree). */
  worktreeBranch: string | null;
  runBranch: string;
  dirty: boolean;
  planPresent: boolean;
  /** Steps the store had as done whose commits the branch does not have (they will be redone). */
  missingCommits: number[];
}

export type { RecoveryOption, RequiredAction, ResumePlan };

export function resumePlan(f: ResumeFacts): ResumePlan {
  const required: RequiredAction[] = [];
  const anyDone = f.steps.some((s) => s.status === 'succeeded');
  if (!f.branchExists && !anyDone) {
    // Nothing was committed yet (e.g. stopped while the run was being set up): a fresh branch from the base loses nothing.
    required.push({
      code: 'no_branch',
      message: `The branch ${f.runBranch} does not exist; no step was committed, so it can be created again from the base commit`,
      options: ['recreate_worktree', 'abort'],
      safeDefault: 'recreate_worktree',
    });
  } else if (!f.branchExists) {
    required.push({ code: 'no_branch', message: `Cannot resume — the branch ${f.runBranch} no longer exists`, options: ['abort'], safeDefault: 'abort' });
  } else if (!f.worktreeExists) {
    required.push({
      code: 'no_worktree',
      message: `The worktree is gone; it can be recreated from ${f.runBranch} (the branch keeps every committed step)`,
      options: ['recreate_worktree', 'abort'],
      safeDefault: 'recreate_worktree',
    });
  } else if (f.worktreeBranch !== f.runBranch) {
    required.push({
      code: 'wrong_branch',
      message: `The worktree is on ${f.worktreeBranch ?? 'a detached HEAD'}, expected ${f.runBranch}`,
      options: ['checkout_branch', 'recreate_worktree', 'abort'],
      safeDefault: 'checkout_branch',
    });
  }
  if (f.worktreeExists && f.dirty) {
    required.push({
      code: 'dirty_tree',
      message: 'The worktree has uncommitted changes from the interrupted attempt; they are kept, never discarded',
      options: ['rescue_commit', 'stash', 'abort'],
      safeDefault: 'rescue_commit',
    });
  }
  if (!f.planPresent) required.push({ code: 'no_plan', message: 'No plan found.', options: ['abort'], safeDefault: 'abort' });
  if (f.missingCommits.length) {
    required.push({
      code: 'missing_commits',
      message: `The store had step${f.missingCommits.length > 1 ? 's' : ''} ${f.missingCommits.join(', ')} as done, but the branch has no commit for ${f.missingCommits.length > 1 ? 'them' : 'it'}: ${f.missingCommits.length > 1 ? 'they' : 'it'} will run again`,
      options: ['rescue_commit'],
      safeDefault: 'rescue_commit',
    });
  }
  const blocked = required.some((r) => (r.code === 'no_branch' && r.options.length === 1) || r.code === 'no_plan');
  const completed = f.steps.filter((s) => s.status === 'succeeded' && s.commit).map((s) => ({ index: s.index, title: s.title, commit: s.commit as string }));
  const failed = f.steps.find((s) => s.status === 'failed');
  const running = f.steps.find((s) => s.status === 'running');
  const next = f.steps.find((s) => s.status !== 'succeeded' && s.status !== 'skipped');
  const lastDone = [...f.steps].reverse().find((s) => s.status === 'succeeded');
  const base = { completed, required, blocked };

  if (f.status === 'waiting_approval') {
    return {
      ...base,
      lastStatus: 'waiting_approval',
      nextStep: next?.index ?? null,
      action: 'approve',
      reason: 'The plan waits for your approval',
      canSkip: false,
      phaseRollover: null,
    };
  }
  if (failed) {
    return {
      ...base,
      lastStatus: 'failed',
      nextStep: failed.index,
      action: 'retry_step',
      canSkip: true,
      phaseRollover: null,
      reason: `Step ${failed.index} ("${failed.title}") produced work its gates rejected${failed.lastError ? ` (${failed.lastError})` : ''}; it runs again with that error in context`,
    };
  }
  if (running) {
    return {
      ...base,
      lastStatus: 'in_progress',
      nextStep: running.index,
      action: 'retry_step',
      canSkip: true,
      phaseRollover: null,
      reason: `Step ${running.index} ("${running.title}") was interrupted after ${running.attempts} attempt${running.attempts === 1 ? '' : 's'}; it runs again (or skip it)`,
    };
  }
  if (!next) {
    return {
      ...base,
      lastStatus: 'completed',
      nextStep: null,
      action: 'finish',
      reason: 'Every step is committed; the run only needs to be marked succeeded',
      canSkip: false,
      phaseRollover: null,
    };
  }
  const rollover =
    lastDone && next.phase && lastDone.phase && next.phase !== lastDone.phase
      ? `Phase "${lastDone.phase}" is complete; continuing with phase "${next.phase}"`
      : null;
  return {
    ...base,
    lastStatus: 'completed',
    nextStep: next.index,
    action: 'next_step',
    canSkip: true,
    phaseRollover: rollover,
    reason: lastDone
      ? `Step ${lastDone.index} was completed; continue with step ${next.index} ("${next.title}")`
      : `No step was completed yet; start with step ${next.index} ("${next.title}")`,
  };
}
