// Runs one step to its end: feeds the step machine its events and carries out its commands (agent, snapshot, gates, validators, commit, sleep, rebase) against the store and git.
import { applyRunCommands } from '../run/apply-run-commands';
import { runLife } from '../run/run-machine';
import { abortInProgress, checkWorktree, commitAll, commitTree, conflictedFiles, headCommit, resetHard, restoreTree, treeOf } from '../git/repo-git';
import { guardRepoConfig } from '../git/repo-config-guard';
import { describeViolations, pinWorktree } from '../git/worktree-integrity';
import { runAttemptGates } from './attempt-gates';
import { dayBounds, dayFacts } from '../policy/budget';
import { createStepMachine } from './step-machine';
import { presetGateTimeout } from '../policy/policy';
import { runAgentAttempt, type AttemptScratch } from './step-agent-attempt';
import type { StepContext, StepDeps } from './step-ports';
import { rebaseStep } from './step-rebase';
import { lastRealFailure, restoreState } from './step-restore';
import { AWAITED, type StepCommand, type StepEvent, type StepOutcome, type StepState } from './step-state';
import { storedAttempt, storedFailure } from './step-stored-attempts';
import { runValidators } from './validators';
import { stepTdd } from './tdd';
import { splitAtRed, storedRed } from './tdd-restore';

export type { StepOutcome } from './step-state';
export type { StepContext, StepDeps, StepNotify } from './step-ports';

/** Runs attempts for step `ctx.index` until its gates pass or the policy stops. */
export async function runStep(deps: StepDeps, ctx: StepContext): Promise<StepOutcome> {
  const { store } = deps;
  const { runId, worktree, workflow, policy, index } = ctx;
  const step = ctx.steps[index - 1];
  if (!step) throw new Error(`step ${index} is not in the plan`);
  const gateNames = step.gates ?? Object.keys(workflow.gates);
  const defaultTimeoutS = presetGateTimeout(workflow) ?? 300;
  const tdd = stepTdd(workflow, step);
  const machine = createStepMachine({
    index,
    totalSteps: ctx.steps.length,
    step,
    gateCommands: gateNames.map((g) => workflow.gates[g]?.run ?? g),
    agent: workflow.agent,
    policy,
    worktree,
    agentTimeoutS: workflow.timeout_seconds,
    rng: deps.rng,
    tdd,
  });

  // Every git command on the worktree names the admin dir found for it in the user's repository (never its .git file).
  const wt = pinWorktree(store.getRun(runId)?.repo_path ?? worktree, worktree);
  const stepStart = store.getSteps(runId).find((s) => s.step_index === index)?.pre_commit ?? ctx.head ?? (await headCommit(wt));
  const rows = store.getAttempts(runId, index);
  // A test-first step past its red test: what came before it is not what the implementation is told about.
  const tddRows = splitAtRed(rows, tdd);
  const real = lastRealFailure(tddRows.after.map((r) => ({ ...r, errorClass: r.error_class, row: r })));
  let state: StepState = restoreState(machine, {
    index,
    stepStart,
    round: store.getRun(runId)?.round ?? 0,
    rows: rows.map(storedAttempt),
    now: deps.now(),
    red: tdd && tddRows.red ? await storedRed(store, wt, stepStart, tddRows.red, tdd) : null,
    lastFailure: real ? storedFailure(store, real.row, workflow.rules) : null,
    lastDiff: real ? store.getAttemptTexts(real.row.id).diff : null,
  });

  // What the adapters keep outside the (serialisable) state: the agent of the attempt in flight, its transcript, config and diff.
  const scratch: AttemptScratch = { agent: null, transcript: [], configSnapshot: null, diff: null };
  const startTrees = new Map<string, string>();
  const startTree = async (sha: string) => startTrees.get(sha) ?? startTrees.set(sha, await treeOf(wt, sha)).get(sha)!;
  /** After a sandboxed process ran in the worktree: its config put back, and the worktree checked before Ratchet's git walks it. */
  const guardAfter = async (): Promise<string | null> => {
    if (scratch.configSnapshot) await guardRepoConfig(store, runId, index, scratch.configSnapshot);
    const found = await checkWorktree(wt);
    return found.length ? describeViolations(found) : null;
  };

  const carryOut = async (c: StepCommand): Promise<StepEvent | null> => {
    switch (c.kind) {
      case 'log':
        store.event(runId, 'log', { level: c.level, message: c.message });
        return null;
      case 'resetWorktree':
        await resetHard(wt, c.to);
        if (c.tree) await restoreTree(wt, c.tree);
        return null;
      case 'abortInProgress': {
        // The conflict retry starts from a tree with no half-done rebase or merge; the conflict itself is in the error context.
        const aborted = await abortInProgress(wt);
        if (aborted.length)
          store.event(runId, 'log', { level: 'info', message: `step ${index}: aborted the ${aborted.join(', ')} left in progress before retrying` });
        return null;
      }
      case 'finishAttempt':
        store.finishAttempt(runId, c.attemptId, { ...c.finish, transcript: scratch.transcript });
        return null;
      case 'recordDecision':
        store.recordDecision(runId, c.attemptId, index, c.n, { ...c.decision, overrides: { ...c.decision.overrides }, fingerprint: c.fingerprint });
        return null;
      case 'finish':
        return null;
      case 'budgetAlert':
        store.event(runId, 'budget.alert', {
          key: c.budget === 'task' ? `task:${runId}` : 'daily',
          kind: c.budget,
          spentUsd: c.spentUsd,
          limitUsd: c.limitUsd,
        });
        deps.notify?.budgetAlert({ index, title: step.title }, c.budget, c.spentUsd, c.limitUsd);
        return null;
      case 'notify':
        deps.notify?.succeededAfterRetry({ index, title: step.title }, c.attempts, c.maxAttempts);
        return null;
      case 'checkBudget': {
        const day = dayBounds(deps.now());
        return {
          type: 'budgetChecked',
          dayNext: day.next.toISOString(),
          facts: {
            taskUsd: policy.budget.taskUsd,
            alertAt: policy.budget.alertAt,
            taskSpent: store.taskSpentUsd(runId),
            ...dayFacts(store, deps, policy.budget.dailyUsd, day.start),
            alerted: {
              task: store.hasEventSince('budget.alert', `task:${runId}`, '1970-01-01T00:00:00.000Z'),
              daily: store.hasEventSince('budget.alert', 'daily', day.start.toISOString()),
            },
            runId,
          },
        };
      }
      case 'runAgent':
        return runAgentAttempt({ deps, ctx, wt, scratch, startTree, guardAfter }, c);
      case 'runGates': {
        // The agent changed a lockfile or manifest: setup first (a failure is the environment's, not the code's).
        const envFailure = (await deps.worktreeEnv?.beforeGates(ctx.signal)) ?? null;
        if (ctx.signal.aborted) return { type: 'stopped' };
        if (envFailure) return { type: 'gatesFinished', failure: envFailure, flaky: false, notes: [] };
        const g = await runAttemptGates(store, {
          runId,
          attemptId: c.attemptId,
          worktree,
          workflow,
          policy,
          gateNames,
          defaultTimeoutS,
          env: deps.env,
          jail: deps.jail,
          signal: ctx.signal,
          timeoutMultiplier: c.timeoutMultiplier,
          diff: scratch.diff,
          previous: state.lastFailure,
          baseline: deps.worktreeEnv?.baseline ?? null,
        });
        // The gates ran the repository's code in the worktree: the same guard as after the agent, before the commit
        // (with no gate, nothing has run since the agent's check).
        const violation = gateNames.length ? await guardAfter() : null;
        if (violation) return { type: 'worktreeViolated', message: violation };
        await deps.worktreeEnv?.afterGates();
        // A stop during the gates is the user's stop, not a failure of the code.
        if (ctx.signal.aborted) return { type: 'stopped' };
        return { type: 'gatesFinished', failure: g.failure, flaky: g.flaky, notes: g.notes };
      }
      case 'validate': {
        const results = await runValidators(policy, {
          worktree,
          env: deps.env,
          jail: deps.jail,
          signal: ctx.signal,
          agent: scratch.agent ?? deps.agentFor(c.agent),
          agentConfig: c.agent,
          system: ctx.system,
          context: ctx.context,
          store,
          runId,
          attemptId: c.attemptId,
          failure: c.failure,
        });
        const violation = await guardAfter();
        if (violation) return { type: 'worktreeViolated', message: violation };
        return { type: 'validated', results: [...results] };
      }
      case 'commit': {
        let sha: string;
        try {
          // The tree the gates tested, snapshotted after the agent (and checked then): nothing a gate or validator wrote
          // since is committed. Without one (an attempt restored from the store), everything, checked after the gates.
          const tree = state.current?.tree;
          sha = tree ? await commitTree(wt, tree, c.message) : await commitAll(wt, c.message, { checked: true });
        } catch (err) {
          // A merge or rebase the agent left with conflicts refuses the commit: that is a git conflict, not an internal error.
          const files = await conflictedFiles(wt);
          if (!files.length) throw err;
          return { type: 'commitConflicted', files, message: 'the step could not be committed: files are in conflict' };
        }
        store.checkpointStep(runId, c.attemptId, index, { ...c.finish, transcript: scratch.transcript }, sha);
        return { type: 'committed', sha };
      }
      case 'sleep': {
        applyRunCommands(store, runId, runLife(runId, { type: 'backoffStarted', reason: c.reason, wakeAt: c.wakeAt }, deps.now()));
        await deps.sleep(c.delayS * 1000, AbortSignal.any([ctx.signal, ctx.skipWait()])).catch(() => undefined);
        if (ctx.signal.aborted) return { type: 'stopped' };
        applyRunCommands(store, runId, runLife(runId, { type: 'backoffEnded' }, deps.now()));
        return { type: 'timerFired' };
      }
      case 'rebase':
        return rebaseStep(store, runId, index, wt);
    }
  };

  let event: StepEvent = { type: 'start' };
  for (;;) {
    const t = machine.next(state, event, deps.now());
    state = t.state;
    let produced: StepEvent | null = null;
    for (const c of t.commands) {
      if (AWAITED.has(c.kind) && ctx.signal.aborted) {
        produced = { type: 'stopped' };
        break;
      }
      produced = (await carryOut(c)) ?? produced;
    }
    if (state.outcome) return state.outcome;
    if (!produced) throw new Error(`step ${index}: the step machine is waiting for an event no command produces (phase ${state.phase})`);
    // The randomness a decision may need (backoff jitter) travels in the event, so the same events replay the same way.
    event = { ...produced, draw: deps.rng() };
  }
}
