// Continuing a run instead of restarting it: reconciling the store with the branch, retry, the resume checks and recovery options.
import { existsSync, renameSync } from 'node:fs';
import type { StatusDocument } from '../../../shared/domain';
import { RatchetError, refuseSteering, runNotFound } from '../errors';
import { branchExists, commitAll, createWorktree, currentBranch, git, isDirty } from '../git/repo-git';
import { holdsRepository, pinnedOrNull, pinWorktree } from '../git/worktree-integrity';
import { checkoutBranch, mergeConflicts, recreateWorktree, stashAll } from '../git/run-refs';
import { completedSteps } from '../git/step-commits';
import { decideContinuation } from '../run/continuation';
import { reconcile, type Reconciliation } from '../run/reconcile';
import { resumePlan, type RecoveryOption, type RequiredAction, type ResumeFacts, type ResumePlan } from '../run/resume-plan';
import type { RunRow, Store } from '../store/store';
import type { ExecuteOptions } from './run-options';

/** Makes the store agree with the branch: adopts step commits it did not know, demotes rows whose commit is gone. */
export async function reconcileWithGit(store: Store, run: RunRow): Promise<Reconciliation> {
  if (!(await branchExists(run.repo_path, run.branch))) {
    throw new RatchetError('no_branch', 'Cannot retry — no branch from previous execution');
  }
  const commits = await completedSteps(run.repo_path, run.base_commit, run.branch);
  const stored = store.getSteps(run.id).map((s) => ({ index: s.step_index, status: s.status, commit: s.commit_sha }));
  const r = reconcile(stored, commits);
  for (const a of r.adopted) store.adoptStep(run.id, a.index, a.sha);
  for (const d of r.demoted) store.demoteStep(run.id, d);
  if (r.outsidePlan.length)
    store.event(run.id, 'log', {
      level: 'warn',
      message: `step commits beyond the plan: ${r.outsidePlan.join(', ')} (kept on the branch, not part of the plan)`,
    });
  return r;
}

export interface ResumeInfo {
  run: RunRow;
  facts: ResumeFacts;
  plan: ResumePlan;
  /** The next step has failed 3+ times across runs. */
  repeatedFailures: Array<{ runId: string; n: number; errorClass: string | null; message: string | null; at: string }>;
  /** The base branch moved since the run started and merging it would conflict (warn and proceed: the run may still work). */
  baseConflicts: string[];
  /** The plan's "Phase: x/total - description": the phase of the step to continue with (or of the last one). */
  phase: { index: number; total: number; name: string } | null;
  /** The last step that ran: its agent and model (from its latest attempt) and status. */
  lastStep: { index: number; title: string; status: string; agent: string | null; model: string | null } | null;
  /** The agent and model the next step will start with. */
  nextAgent: { agent: string; model: string | null } | null;
}

/** An agent's short name: `anthropic`, or the program a `command` agent runs. */
export function agentLabel(kind: string, command?: readonly string[] | null): string {
  return kind === 'command' && command?.[0] ? command[0] : kind;
}

/** Everything the resume dialog shows, computed without changing anything. */
export async function resumeInfo(store: Store, runId: string): Promise<ResumeInfo> {
  const run = store.getRun(runId);
  if (!run) throw runNotFound(runId);
  const hasBranch = await branchExists(run.repo_path, run.branch);
  // A worktree git has no entry for (removed by hand, moved) counts as missing: recreating it moves the folder aside.
  const wt = existsSync(run.worktree) ? pinnedOrNull(run.repo_path, run.worktree) : null;
  const worktreeExists = wt !== null;
  const worktreeBranch = wt ? await currentBranch(wt) : null;
  const dirty = wt ? await isDirty(wt) : false;
  const commits = hasBranch ? await completedSteps(run.repo_path, run.base_commit, run.branch) : [];
  const steps = store.getSteps(runId);
  const stored = steps.map((s) => ({ index: s.step_index, status: s.status, commit: s.commit_sha }));
  const r = reconcile(stored, commits);
  const adopted = new Map(r.adopted.map((a) => [a.index, a.sha]));
  const attempts = store.getAttempts(runId);
  const facts: ResumeFacts = {
    status: run.status,
    reason: run.reason,
    steps: steps.map((s) => {
      const mine = attempts.filter((a) => a.step_index === s.step_index);
      const last = mine.at(-1);
      const done = adopted.get(s.step_index);
      return {
        index: s.step_index,
        title: s.title,
        phase: s.phase,
        status: done ? 'succeeded' : r.demoted.includes(s.step_index) ? 'pending' : s.status,
        commit: done ?? (r.demoted.includes(s.step_index) ? null : s.commit_sha),
        attempts: mine.length,
        lastError: last?.error_message ?? null,
      };
    }),
    worktreeExists,
    branchExists: hasBranch,
    worktreeBranch,
    runBranch: run.branch,
    dirty,
    planPresent: store.getPlan(runId) !== undefined,
    missingCommits: r.demoted,
  };
  const plan = resumePlan(facts);
  const next = plan.nextStep !== null ? steps.find((s) => s.step_index === plan.nextStep) : undefined;
  const repeatedFailures = next ? store.stepFailuresAcrossRuns(runId, next.step_index, next.title) : [];
  let baseConflicts: string[] = [];
  if (hasBranch && run.base_branch) {
    const tip = await currentTip(run.repo_path, run.base_branch);
    if (tip && tip !== run.base_commit) baseConflicts = await mergeConflicts(run.repo_path, run.branch, tip);
  }
  const phases = [...new Set(facts.steps.map((s) => s.phase).filter((x): x is string => Boolean(x)))];
  const last = [...facts.steps].reverse().find((s) => s.status !== 'pending');
  const here = facts.steps.find((s) => s.index === plan.nextStep) ?? last;
  const phase = here?.phase ? { index: phases.indexOf(here.phase) + 1, total: phases.length, name: here.phase } : null;
  const lastAttempt = last ? attempts.filter((a) => a.step_index === last.index).at(-1) : undefined;
  const lastStep = last
    ? { index: last.index, title: last.title, status: last.status, agent: lastAttempt?.agent_kind ?? null, model: lastAttempt?.model ?? null }
    : null;
  let nextAgent: ResumeInfo['nextAgent'] = null;
  if (plan.nextStep !== null) {
    const a = store.getWorkflow(runId).agent;
    nextAgent = {
      agent: agentLabel(a.kind, a.command),
      model: a.kind === 'anthropic' ? a.model : a.command?.some((c) => c.includes('{model}')) ? a.model : null,
    };
  }
  return { run, facts, plan, repeatedFailures: repeatedFailures.length >= 3 ? repeatedFailures : [], baseConflicts, phase, lastStep, nextAgent };
}

export async function currentTip(repo: string, branch: string): Promise<string | null> {
  try {
    return (await git(repo).raw(['rev-parse', '--verify', '-q', `refs/heads/${branch}`])).trim() || null;
  } catch {
    return null;
  }
}

/** Carries out one recovery option for a required action. Nothing the agent made is thrown away. */
export async function applyRecovery(store: Store, run: RunRow, action: RequiredAction, option: RecoveryOption): Promise<string> {
  if (!action.options.includes(option))
    throw new RatchetError('bad_arguments', `\`${option}\` is not an option for ${action.code} (${action.options.join(', ')}).`);
  let note: string;
  switch (option) {
    case 'abort':
      throw new RatchetError('aborted', `Resume aborted: ${action.message}.`);
    case 'recreate_worktree': {
      if (holdsRepository(run.repo_path, run.worktree)) {
        throw new RatchetError(
          'bad_arguments',
          `Run ${run.id} names ${run.worktree} as its worktree, which holds the repository itself; Ratchet will not move it aside. Start the run again.`,
        );
      }
      if (existsSync(run.worktree)) {
        // Never delete a folder the agent worked in: move it aside.
        const aside = `${run.worktree}.aside-${Date.now()}`;
        renameSync(run.worktree, aside);
        note = `moved the old worktree folder aside to ${aside}, `;
      } else note = '';
      if (await branchExists(run.repo_path, run.branch)) {
        await recreateWorktree(run.repo_path, run.worktree, run.branch);
        note += `recreated the worktree from ${run.branch}`;
      } else {
        await createWorktree(run.repo_path, run.worktree, run.branch, run.base_commit);
        note += `created ${run.branch} again from the base commit ${run.base_commit.slice(0, 10)} (no step had been committed)`;
      }
      break;
    }
    case 'checkout_branch': {
      const wt = pinWorktree(run.repo_path, run.worktree);
      let stash = '';
      if (await isDirty(wt)) {
        const sha = await stashAll(wt, `ratchet ${run.id}: changes found on the wrong branch`);
        stash = sha ? ` (its uncommitted changes are in stash ${sha.slice(0, 10)})` : '';
      }
      await checkoutBranch(wt, run.branch);
      note = `checked out ${run.branch} in the worktree${stash}`;
      break;
    }
    case 'rescue_commit': {
      if (action.code !== 'dirty_tree') return 'nothing to do';
      // An earlier option (checking out the right branch) may already have stashed the changes: never an empty rescue commit.
      const wt = pinWorktree(run.repo_path, run.worktree);
      if (!(await isDirty(wt))) return 'the uncommitted changes were already kept (see the note above); no rescue commit needed';
      const sha = await commitAll(wt, 'rescue: uncommitted work of an interrupted attempt');
      store.event(run.id, 'rescue.committed', { commit: sha, reason: 'resume' });
      note = `kept the uncommitted changes in rescue commit ${sha.slice(0, 10)}`;
      break;
    }
    case 'stash': {
      const wt = pinWorktree(run.repo_path, run.worktree);
      if (!(await isDirty(wt))) return 'the uncommitted changes were already kept (see the note above); nothing to stash';
      const sha = await stashAll(wt, `ratchet ${run.id}: uncommitted work of an interrupted attempt`);
      store.event(run.id, 'rescue.stashed', { stash: sha });
      note = `kept the uncommitted changes in stash ${sha?.slice(0, 10) ?? '(none)'}`;
      break;
    }
  }
  store.event(run.id, 'log', { level: 'info', message: note });
  return note;
}

export interface ContinueOptions {
  signal: AbortSignal;
  /** Chosen option per required action; missing ones take the safe default. */
  choices?: Partial<Record<RequiredAction['code'], RecoveryOption>>;
  auto?: 'step' | 'phase' | 'run';
  skipStep?: boolean;
  /** Trust again the version of the repository's workflow file the run started with, when it is no longer trusted. */
  trust?: boolean;
  /** Approve a plan waiting in `waiting_approval` before resuming (resume only). */
  approve?: boolean;
  /** Asked after each step when `auto` is `step` (interactive auto-progress). */
  confirmNext?: ExecuteOptions['confirmNext'];
  /** Start the agent though the pre-run check finds the environment not ready (as `ratchet run --run-anyway`). */
  runAnyway?: boolean;
  observe?: ExecuteOptions['observe'];
}

type Execute = (runId: string, signal: AbortSignal, opts: ExecuteOptions & { continuation: { turnBudget: number | null } }) => Promise<StatusDocument>;

/** Continue a failed run on the same branch and worktree from the next incomplete step. */
export async function retryRun(store: Store, execute: Execute, runId: string, opts: ContinueOptions): Promise<{ doc: StatusDocument; notes: string[] }> {
  const info = await resumeInfo(store, runId);
  const { run } = info;
  refuseSteering(`Run ${runId}`, run.status, 'retry');
  if (!info.facts.branchExists) throw new RatchetError('no_branch', 'Cannot retry — no branch from previous execution');
  if (!info.facts.planPresent) throw new RatchetError('no_plan', 'No plan found.');
  if (!info.facts.steps.some((s) => s.status === 'succeeded' && s.commit)) {
    throw new RatchetError('no_completed_steps', 'No completed steps found. Start the run again instead.');
  }
  return continueRun(store, execute, info, 'retry', opts);
}

/** Resume an interrupted (or paused, waiting) run from its last checkpoint after the checks. */
export async function resumeRun(store: Store, execute: Execute, runId: string, opts: ContinueOptions): Promise<{ doc: StatusDocument; notes: string[] }> {
  const info = await resumeInfo(store, runId);
  refuseSteering(`Run ${runId}`, info.run.status, 'resume');
  return continueRun(store, execute, info, 'resume', opts);
}

async function continueRun(store: Store, execute: Execute, info: ResumeInfo, kind: 'retry' | 'resume', opts: ContinueOptions) {
  const { run, plan } = info;
  const decision = decideContinuation({
    kind,
    run: { status: run.status, wakeAt: run.wake_at, baseBranch: run.base_branch, baseCommit: run.base_commit },
    plan,
    baseConflicts: info.baseConflicts,
    repeatedFailures: info.repeatedFailures.length,
    choices: opts.choices,
    skipStep: opts.skipStep,
    steps: store.getSteps(run.id).map((s) => ({ index: s.step_index, status: s.status })),
    maxTurns: store.getWorkflow(run.id).agent.max_turns,
  });
  if (decision.refused) throw new RatchetError(decision.refused.code, decision.refused.message);
  // The decision carried out: recoveries on git, then the store.
  const notes: string[] = [];
  for (const step of decision.steps) {
    switch (step.kind) {
      case 'note':
        notes.push(step.text);
        break;
      case 'recover':
        notes.push(await applyRecovery(store, run, step.action, step.option));
        break;
      case 'baseMoved':
        store.event(run.id, 'log', { level: 'warn', message: step.text });
        notes.push(step.text);
        break;
      case 'repeatedFailures':
        store.event(run.id, 'step.repeated_failures', { step: step.step, attempts: info.repeatedFailures });
        notes.push(step.text);
        break;
      case 'skip':
        store.setStepStatus(run.id, step.step, 'skipped');
        notes.push(`skipped step ${step.step}`);
        break;
    }
  }
  for (const index of decision.toPending) store.setStepStatus(run.id, index, 'pending');
  if (decision.newRound) store.startRound(run.id);
  const turnBudget = decision.turnBudget;
  store.recordResume(run.id, { kind, fromStep: plan.nextStep, fromStatus: run.status, turnBudget, auto: opts.auto ?? 'run', notes });
  const doc = await execute(run.id, opts.signal, {
    continuation: { turnBudget, notes: decision.agentNotes, baseConflicts: info.baseConflicts },
    auto: opts.auto,
    confirmNext: opts.confirmNext,
    runAnyway: opts.runAnyway,
    observe: opts.observe,
  });
  return { doc, notes };
}
