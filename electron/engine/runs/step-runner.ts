// Runs one step to its end: feeds the step machine its events and carries out its commands (agent, snapshot, gates, validators, commit, sleep, rebase) against the store and git.
import { recordApiHold, waitForApiHold } from './api-hold';
import { applyRunCommands } from './apply-run-commands';
import { runLife } from './run-machine';
import type { Agent } from '../agents/agent';
import { boundText } from '../gates/bounded-output';
import type { FailedTest } from '../gates/parse-failures';
import {
  abortInProgress,
  branchTip,
  changedPaths,
  checkWorktree,
  commitAll,
  commitTree,
  conflictedFiles,
  diffTrees,
  headCommit,
  isAncestor,
  rebaseOnto,
  resetHard,
  restoreTree,
  saveAttemptRef,
  snapshotTree,
  treeOf,
} from '../git/repo-git';
import { completedSteps } from '../git/step-commits';
import type { RunJail } from '../sandbox/os-sandbox';
import { guardRepoConfig, snapshotRepoConfig, type RepoConfigSnapshot } from '../git/repo-config-guard';
import { describeViolations, pinWorktree } from '../git/worktree-integrity';
import type { Store } from '../store/store';
import type { AttemptRow } from '../store/store-rows';
import type { AgentConfig, StepConfig, Workflow } from '../workflow/schema';
import { runAttemptGates, type Failure } from './attempt-gates';
import { classifyGateFailure, hintsFor } from './classify';
import { budgetCapReason, dayBounds, spendLimit } from './budget';
import { createStepMachine } from './step-machine';
import { presetGateTimeout, type Policy } from './policy';
import { lastRealFailure, restoreState, type StoredAttempt } from './step-restore';
import { AWAITED, type StepCommand, type StepEvent, type StepOutcome, type StepState } from './step-state';
import { runValidators } from './validators';
import { stepTdd } from './tdd';
import { splitAtRed, storedRed } from './tdd-restore';
import type { Overrides } from './retry-entries';
import type { WorktreeEnvHooks } from '../worktree-env/run-environment';

export type { StepOutcome } from './step-state';

export interface StepDeps {
  store: Store;
  agentFor(config: AgentConfig): Agent;
  env: NodeJS.ProcessEnv;
  /** The run's OS sandbox: every gate and validator runs inside it. */
  jail?: RunJail;
  now(): Date;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  rng(): number;
  /** Which API key the run's agent uses (a hash, see api-hold.ts): a 429 on it holds every run that shares it. */
  apiKeyHash?: string | null;
  /** The run's notifications (ntfy, webhook); sending never waits and never throws. */
  notify?: StepNotify;
  /** The worktree's environment: setup again before gates when the agent changed its inputs; gates' leftovers never committed. */
  worktreeEnv?: WorktreeEnvHooks;
}

/** What a step tells the run's notification targets about. */
export interface StepNotify {
  succeededAfterRetry(step: { index: number; title: string }, attempts: number, maxAttempts: number): void;
  budgetAlert(step: { index: number; title: string }, budget: 'task' | 'daily', spentUsd: number, limitUsd: number): void;
}

export interface StepContext {
  runId: string;
  worktree: string;
  workflow: Workflow;
  policy: Policy;
  steps: readonly StepConfig[];
  index: number;
  system: string;
  context: string;
  signal: AbortSignal;
  /** Aborting it ends a backoff wait at once ("Retry now"). */
  skipWait(): AbortSignal;
  /** The worktree's HEAD when the caller knows it (the commit of the step just completed), so the step need not look it up. */
  head?: string;
  /** Sent before each attempt's prompt of this step (a continued run's progress), outside the cached task context. */
  preamble?: string;
}

const MAX_DIFF_CHARS = 200_000;

function stored(a: AttemptRow): StoredAttempt {
  const decision = a.decision_json ? (JSON.parse(a.decision_json) as { overrides?: Overrides }) : null;
  return {
    n: a.n,
    round: a.round ?? 0,
    outcome: a.outcome,
    errorClass: a.error_class,
    message: a.error_message,
    failures: JSON.parse(a.failures_json) as FailedTest[],
    fingerprint: a.fingerprint,
    overrides: decision?.overrides ?? null,
  };
}

/**
 * The failure a stored attempt ended with, rebuilt from its gate results (for the next attempt's prompt). Hints are
 * not stored: they are worked out again from the stored gate output, as the attempt's own classification made them.
 */
function storedFailure(store: Store, a: AttemptRow, rules: Workflow['rules']): Failure {
  const gates = store.getGateResults(a.id);
  const failing = gates.find((g) => !g.passed);
  const failures = JSON.parse(a.failures_json) as FailedTest[];
  const gate = failing
    ? {
        name: failing.gate,
        command: failing.command,
        passed: false,
        exitCode: failing.exitCode,
        signal: failing.signal,
        timedOut: failing.timedOut,
        durationMs: failing.durationMs,
        output: failing.output,
        outputBytes: failing.outputBytes,
        reportXml: null,
        spawnError: null,
      }
    : null;
  const again = gate ? classifyGateFailure(gate, failures, rules) : null;
  const errorClass = a.error_class!;
  return {
    errorClass,
    message: a.error_message ?? '',
    hints: again?.errorClass === errorClass ? again.hints : hintsFor(errorClass, gate?.output ?? a.error_message ?? '', failures),
    failures,
    gate,
    failedGates: gates.filter((g) => !g.passed).map((g) => g.gate),
    outputs: Object.fromEntries(gates.map((g) => [g.gate, g.output])),
    agentFatal: false,
    retryAfterS: null,
  };
}

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
    rows: rows.map(stored),
    now: deps.now(),
    red: tdd && tddRows.red ? await storedRed(store, wt, stepStart, tddRows.red, tdd) : null,
    lastFailure: real ? storedFailure(store, real.row, workflow.rules) : null,
    lastDiff: real ? store.getAttemptTexts(real.row.id).diff : null,
  });

  // What the adapters keep outside the (serialisable) state: the agent of the attempt in flight and its transcript.
  const startTrees = new Map<string, string>();
  const startTree = async (sha: string) => startTrees.get(sha) ?? startTrees.set(sha, await treeOf(wt, sha)).get(sha)!;
  let agent: Agent | null = null;
  let transcript: unknown[] = [];
  // The repository's config as it was before the attempt: put back after the agent, and after the gates and validators.
  let configSnapshot: RepoConfigSnapshot | null = null;
  /** After a sandboxed process ran in the worktree: its config put back, and the worktree checked before Ratchet's git walks it. */
  const guardAfter = async (): Promise<string | null> => {
    if (configSnapshot) await guardRepoConfig(store, runId, index, configSnapshot);
    const found = await checkWorktree(wt);
    return found.length ? describeViolations(found) : null;
  };
  // The attempt's diff, for the classifier: an import the change added is the agent's, not the environment's.
  let attemptDiff: string | null = null;

  // What the run and today have spent against their budgets, read before each API call (the agent's spend limit).
  const spendFacts = () => ({
    taskUsd: policy.budget.taskUsd,
    dailyUsd: policy.budget.dailyUsd,
    taskSpent: store.taskSpentUsd(runId),
    daySpent: store.spentSinceUsd(dayBounds(deps.now()).start.toISOString()),
  });
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
        store.finishAttempt(runId, c.attemptId, { ...c.finish, transcript });
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
            dailyUsd: policy.budget.dailyUsd,
            alertAt: policy.budget.alertAt,
            taskSpent: store.taskSpentUsd(runId),
            daySpent: store.spentSinceUsd(day.start.toISOString()),
            alerted: {
              task: store.hasEventSince('budget.alert', `task:${runId}`, '1970-01-01T00:00:00.000Z'),
              daily: store.hasEventSince('budget.alert', 'daily', day.start.toISOString()),
            },
            runId,
          },
        };
      }
      case 'runAgent': {
        // A 429 on any run using this API key holds this one too, until its retry-after.
        if (!(await waitForApiHold(store, deps, runId, ctx.signal, ctx.skipWait()))) return { type: 'stopped' };
        agent = deps.agentFor(c.agent);
        const prompt = ctx.preamble ? `${ctx.preamble}\n\n${c.prompt}` : c.prompt;
        const attemptId = store.startAttempt({
          runId,
          stepIndex: index,
          n: c.n,
          agentKind: agent.kind,
          model: c.agent.model,
          prompt,
          preCommit: c.preCommit,
          round: c.round,
        });
        if (Object.keys(c.overrides).length) store.setAttemptOverrides(attemptId, { ...c.overrides });
        // [git hardening] snapshot the repo's git config before the agent works (checked below).
        configSnapshot = await snapshotRepoConfig(wt);
        const timeout = AbortSignal.timeout(workflow.timeout_seconds * 1000);
        const result = await agent.run({
          worktree,
          system: ctx.system,
          context: ctx.context,
          prompt,
          model: c.agent.model,
          maxTurns: c.agent.max_turns,
          maxTokens: c.agent.max_tokens,
          session: c.session,
          sessionId: c.sessionId,
          signal: AbortSignal.any([ctx.signal, timeout]),
          onUsage: (model, usage, costUsd) => store.recordApiCall(runId, attemptId, { model, ...usage, costUsd }),
          spendLimitUsd: () => spendLimit(spendFacts())?.usd ?? null,
          onTranscript: (entry) => store.event(runId, 'agent.transcript', { attemptId, ...entry }),
        });
        if (result.reportedCostUsd !== null) {
          store.recordApiCall(runId, attemptId, {
            model: c.agent.model,
            inputTokens: 0,
            outputTokens: 0,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
            costUsd: result.reportedCostUsd,
          });
        }
        transcript = result.transcript;
        // [git hardening] revert config the agent wrote (fsmonitor, filters…) before Ratchet's own git runs again.
        // [git walls] and refuse a worktree whose .git file was rewritten or that holds a nested git dir: nothing is staged.
        const violation = await guardAfter();
        if (violation) return { type: 'worktreeViolated', message: violation, attemptId, sessionId: result.sessionId };
        // Keep the attempt's tree whatever happens next, so it can be diffed or restored.
        // Independent git work runs side by side: reads of objects never wait on the index or a ref being written.
        const [tree, from] = await Promise.all([snapshotTree(wt, { checked: true }), startTree(c.preCommit)]);
        const treeRef = `refs/ratchet/${runId}/${index}/${c.n}`;
        const [, fullDiff] = await Promise.all([
          saveAttemptRef(wt, treeRef, tree, c.preCommit, `ratchet: step ${index} attempt ${c.n}`),
          diffTrees(wt, from, tree),
        ]);
        const diff = boundText(fullDiff, MAX_DIFF_CHARS);
        attemptDiff = diff;
        const artifacts = { attemptId, sessionId: result.sessionId, tree, treeRef, diff };
        // A stop during the agent is the user's stop, not a failure of the code.
        if (ctx.signal.aborted) return { type: 'stopped', attempt: artifacts };
        if (result.stop === 'budget') {
          const facts = spendFacts();
          const kind = spendLimit(facts)?.kind ?? 'task';
          const reason = budgetCapReason(kind, { ...facts, runId }, result.budgetNote ?? 'stopped before a call the budget could not cover');
          return { type: 'budgetStopped', ...artifacts, budget: kind, reason, wakeAt: kind === 'daily' ? dayBounds(deps.now()).next.toISOString() : null };
        }
        if (!timeout.aborted && result.stop === 'error' && result.error) {
          const e = result.error;
          if (e.errorClass === 'rate_limit') recordApiHold(store, deps, runId, e.retryAfterS);
          return { type: 'apiError', ...artifacts, errorClass: e.errorClass, message: e.message, retriable: e.retriable, retryAfterS: e.retryAfterS };
        }
        // A test-first step's test attempt: the files it changed, for the machine's "did it add a test" check.
        const changed = c.listChanged ? await changedPaths(wt, from, tree) : undefined;
        return { type: 'agentFinished', ...artifacts, timedOut: timeout.aborted, unchanged: tree === from, ...(changed ? { changed } : {}) };
      }
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
          diff: attemptDiff,
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
          agent: agent ?? deps.agentFor(c.agent),
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
        store.checkpointStep(runId, c.attemptId, index, { ...c.finish, transcript }, sha);
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
        return rebase();
    }
  };

  /** The one rebase a git conflict gets: the run's branch onto its base branch's tip, when the base moved. */
  const rebase = async (): Promise<StepEvent> => {
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
