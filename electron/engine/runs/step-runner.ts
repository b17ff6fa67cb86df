// Runs one step to its end: attempts (agent, snapshot, gates), the policy's decision after each failure, and the step commit.
import type { ErrorClass } from '../../../shared/domain';
import type { Agent, AgentRunResult } from '../agents/agent';
import { boundText } from '../gates/bounded-output';
import type { FailedTest } from '../gates/parse-failures';
import { runGate } from '../gates/run-gate';
import type { RunJail } from '../sandbox/os-sandbox';
import { abortInProgress, commitAll, diffTrees, headCommit, resetHard, saveAttemptRef, snapshotTree, treeOf } from '../git/repo-git';
import type { Store } from '../store/store';
import type { AgentConfig, StepConfig, Workflow } from '../workflow/schema';
import { attemptsSummary, type AttemptFacts } from './attempt-summary';
import { runAttemptGates, type Failure } from './attempt-gates';
import { checkBudget, dayBounds } from './budget';
import { decideAfterFailure } from './decide';
import { fingerprint } from './fingerprint';
import { presetGateTimeout, type Policy } from './policy';
import { renderTemplate, retryContext, stepPrompt, type TemplateState } from './prompts';
import type { Overrides } from './retry-entries';

export interface StepDeps {
  store: Store;
  agentFor(config: AgentConfig): Agent;
  env: NodeJS.ProcessEnv;
  /** The run's OS sandbox: every gate and validator runs inside it. */
  jail?: RunJail;
  now(): Date;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  rng(): number;
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
}

export type StepOutcome =
  | { kind: 'done'; commit: string }
  | { kind: 'stopped'; reason: string }
  | { kind: 'fatal'; reason: string; summary: string; errorClass: ErrorClass | null }
  | { kind: 'escalate'; reason: string; summary: string }
  | { kind: 'parked'; reason: string; wakeAt: string }
  | { kind: 'budget'; budget: 'task' | 'daily'; reason: string; wakeAt: string | null };

const MAX_DIFF_CHARS = 200_000;
const MAX_TEMPLATE_OUTPUT = 24_000;

function agentFailure(result: AgentRunResult, timedOut: boolean, timeoutS: number): Failure | null {
  const base = { hints: [], failures: [], gate: null, failedGates: [], outputs: {} };
  if (timedOut) return { ...base, errorClass: 'timeout', message: `the agent did not finish within timeout_seconds (${timeoutS} s)`, agentFatal: false, retryAfterS: null };
  if (result.stop !== 'error' || !result.error) return null;
  const e = result.error;
  return { ...base, errorClass: e.errorClass, message: e.message, agentFatal: !e.retriable, retryAfterS: e.retryAfterS };
}

function remainingIssues(f: Failure): string[] {
  if (!f.failures.length) return [`${f.errorClass}: ${f.message}`];
  return f.failures.map((t: FailedTest) => {
    if (t.expected !== null || t.actual !== null) return `${t.name}: expected ${t.expected ?? '?'}, got ${t.actual ?? '?'}`;
    return t.message ? `${t.name}: ${t.message.split('\n')[0]}` : t.name;
  });
}

function templateState(f: Failure, diff: string | null, n: number, maxAttempts: number, step: StepConfig, prev: TemplateState | undefined, errors: readonly string[]): TemplateState {
  const gate: TemplateState = {};
  for (const [name, out] of Object.entries(f.outputs)) gate[name] = boundText(out, MAX_TEMPLATE_OUTPUT);
  return {
    error: `${f.errorClass}: ${f.message}`,
    diff: diff ?? '',
    gate,
    attempt: n,
    max_attempts: maxAttempts,
    step: { title: step.title, prompt: step.prompt },
    /** Every failure of this step so far, oldest first (seed 002's accumulated error context). */
    errors: errors.join('\n\n'),
    prev,
  };
}

/** Runs attempts for step `ctx.index` until its gates pass or the policy stops. */
export async function runStep(deps: StepDeps, ctx: StepContext): Promise<StepOutcome> {
  const { store } = deps;
  const { runId, worktree, workflow, policy, index } = ctx;
  const step = ctx.steps[index - 1];
  if (!step) throw new Error(`step ${index} is not in the plan`);
  const gateNames = step.gates ?? Object.keys(workflow.gates);
  const gateCommands = gateNames.map((g) => workflow.gates[g]?.run ?? g);
  const defaultTimeoutS = presetGateTimeout(workflow) ?? 300;

  const stepStart = store.getSteps(runId).find((s) => s.step_index === index)?.pre_commit ?? (await headCommit(worktree));
  const startTree = await treeOf(worktree, stepStart);
  const rows = store.getAttempts(runId, index);
  // Interrupted attempts stay in the summary but are not failures: they do not count against any limit.
  const history: AttemptFacts[] = rows.map((a) => ({
    n: a.n, outcome: a.outcome, errorClass: a.error_class, message: a.error_message,
    failedTests: (JSON.parse(a.failures_json) as FailedTest[]).map((t) => t.name),
  }));
  const fingerprints: Array<string | null> = rows.map((a) => a.fingerprint);
  const lastRow = rows.at(-1);
  let active: Overrides = lastRow?.decision_json ? ((JSON.parse(lastRow.decision_json) as { overrides?: Overrides }).overrides ?? {}) : {};
  let n = rows.length + 1;
  let lastTree: string | null = null;
  let lastFailure: Failure | null = null;
  let lastDiff: string | null = null;
  // A retried or resumed step picks up where its last failed attempt left off: that error goes into the prompt.
  const lastBad = [...rows].reverse().find((a) => (a.outcome === 'failed' || a.outcome === 'error') && a.error_class);
  if (lastBad?.error_class) {
    const gates = store.getGateResults(lastBad.id);
    const failing = gates.find((g) => !g.passed);
    lastFailure = {
      errorClass: lastBad.error_class,
      message: lastBad.error_message ?? '',
      hints: [],
      failures: JSON.parse(lastBad.failures_json) as FailedTest[],
      gate: failing
        ? { name: failing.gate, command: failing.command, passed: false, exitCode: failing.exitCode, signal: failing.signal, timedOut: failing.timedOut, durationMs: failing.durationMs, output: failing.output, outputBytes: failing.outputBytes, reportXml: null, spawnError: null }
        : null,
      failedGates: gates.filter((g) => !g.passed).map((g) => g.gate),
      outputs: Object.fromEntries(gates.map((g) => [g.gate, g.output])),
      agentFatal: false,
      retryAfterS: null,
    };
    lastDiff = lastBad.diff;
    // lastTree stays unset: the user may have fixed the cause outside the tree (a dependency, a budget), so the first
    // attempt after a retry or resume is not refused for changing nothing.
  }
  let lastSession: { id: string | null; agent: string } | null = null;
  let prevState: TemplateState | undefined;
  const errorLog: string[] = [];

  for (;;) {
    // Budgets are checked before every attempt (seed 002's cost control).
    const day = dayBounds(deps.now());
    const verdict = checkBudget({
      taskUsd: policy.budget.taskUsd, dailyUsd: policy.budget.dailyUsd, alertAt: policy.budget.alertAt,
      taskSpent: store.taskSpentUsd(runId), daySpent: store.spentSinceUsd(day.start.toISOString()),
      alerted: {
        task: store.hasEventSince('budget.alert', `task:${runId}`, '1970-01-01T00:00:00.000Z'),
        daily: store.hasEventSince('budget.alert', 'daily', day.start.toISOString()),
      },
    });
    if (!verdict.ok) {
      return { kind: 'budget', budget: verdict.kind, reason: verdict.reason, wakeAt: verdict.kind === 'daily' ? day.next.toISOString() : null };
    }
    for (const a of verdict.alerts) {
      store.event(runId, 'budget.alert', { key: a.kind === 'task' ? `task:${runId}` : 'daily', kind: a.kind, spentUsd: a.spent, limitUsd: a.limit });
    }

    if (n > 1 && active.worktree === 'reset') {
      await resetHard(worktree, stepStart);
      store.event(runId, 'log', { level: 'info', message: `step ${index}: worktree reset to the step's start (${stepStart.slice(0, 10)})` });
    }
    const agentConfig: AgentConfig = { ...workflow.agent, ...active.agent } as AgentConfig;
    const agent = deps.agentFor(agentConfig);
    const agentKey = `${agentConfig.kind}:${agentConfig.model}`;
    const canContinue = lastSession !== null && lastSession.id !== null && lastSession.agent === agentKey;
    const session: 'new' | 'continue' = lastFailure && (active.session ?? 'continue') === 'continue' && canContinue ? 'continue' : 'new';
    const maxAttempts = Math.min(policy.exitAt !== null ? policy.exitAt - 1 : Infinity, policy.limits[lastFailure?.errorClass ?? 'test_failure'] + 1);

    const base = stepPrompt(index, ctx.steps.length, step, gateCommands);
    let prompt = base;
    if (lastFailure) {
      errorLog.push(`Attempt ${n - 1}: ${lastFailure.errorClass}: ${lastFailure.message}\n${boundText(lastFailure.gate?.output ?? '', 4000)}`);
      const state = templateState(lastFailure, lastDiff, n, maxAttempts, step, prevState, errorLog);
      const retry = active.prompt
        ? renderTemplate(active.prompt, state)
        : retryContext({
            attempt: n, maxAttempts, errorClass: lastFailure.errorClass, message: lastFailure.message,
            gateLabel: lastFailure.gate ? `the \`${lastFailure.gate.name}\` gate (\`${lastFailure.gate.command}\`, exit ${lastFailure.gate.exitCode ?? lastFailure.gate.signal ?? 'none'})` : 'the agent',
            output: lastFailure.gate?.output ?? lastFailure.message, failures: lastFailure.failures, hints: lastFailure.hints, previousDiff: lastDiff,
          });
      // A continued session already has the step's prompt; a new one needs it again (unless the entry replaced the prompt).
      prompt = session === 'continue' || active.prompt ? retry : `${base}\n\n${retry}`;
      prevState = state;
    }
    if (n > 1) store.event(runId, 'log', { level: 'info', message: `step ${index}: attempt ${n}${session === 'continue' ? ' (same session)' : ''}` });
    const attemptId = store.startAttempt({ runId, stepIndex: index, n, agentKind: agent.kind, model: agentConfig.model, prompt, preCommit: stepStart });
    if (Object.keys(active).length) store.setAttemptOverrides(attemptId, { ...active });

    const timeout = AbortSignal.timeout(workflow.timeout_seconds * 1000);
    const result = await agent.run({
      worktree, system: ctx.system, context: ctx.context, prompt, model: agentConfig.model,
      maxTurns: agentConfig.max_turns, maxTokens: agentConfig.max_tokens, session,
      sessionId: session === 'continue' ? (lastSession?.id ?? null) : null,
      signal: AbortSignal.any([ctx.signal, timeout]),
      onUsage: (model, usage, costUsd) => store.recordApiCall(runId, attemptId, { model, ...usage, costUsd }),
      onTranscript: (entry) => store.event(runId, 'agent.transcript', { attemptId, ...entry }),
    });
    if (result.reportedCostUsd !== null) {
      store.recordApiCall(runId, attemptId, { model: agentConfig.model, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: result.reportedCostUsd });
    }
    lastSession = { id: result.sessionId, agent: agentKey };

    // Keep the attempt's tree whatever happens next, so it can be diffed or restored.
    const tree = await snapshotTree(worktree);
    const ref = `refs/ratchet/${runId}/${index}/${n}`;
    await saveAttemptRef(worktree, ref, tree, stepStart, `ratchet: step ${index} attempt ${n}`);
    const diff = boundText(await diffTrees(worktree, startTree, tree), MAX_DIFF_CHARS);
    const changedNothing = lastTree !== null && tree === lastTree;
    const finish = { treeRef: ref, treeSha: tree, diff, transcript: result.transcript, sessionId: result.sessionId };

    let failure = ctx.signal.aborted ? null : agentFailure(result, timeout.aborted, workflow.timeout_seconds);
    if (!failure && changedNothing && !ctx.signal.aborted) {
      failure = { errorClass: 'no_change', message: 'the agent made no changes since the previous attempt', hints: [], failures: [], gate: null, failedGates: [], outputs: {}, agentFatal: false, retryAfterS: null };
    }
    let flaky = false;
    let notes: string[] = [];
    if (!failure && !ctx.signal.aborted) {
      const g = await runAttemptGates(store, {
        runId, attemptId, worktree, workflow, policy, gateNames, defaultTimeoutS, env: deps.env, jail: deps.jail, signal: ctx.signal,
        timeoutMultiplier: active.gateTimeoutMultiplier ?? 1,
      });
      failure = g.failure;
      flaky = g.flaky;
      notes = g.notes;
      for (const message of notes) store.event(runId, 'log', { level: 'warn', message: `step ${index}: ${message}` });
    }

    // A stop during the agent or the gates is the user's stop, not a failure of the code.
    if (ctx.signal.aborted) {
      store.finishAttempt(runId, attemptId, { ...finish, outcome: 'interrupted', errorClass: null, errorMessage: 'stopped by the user', summary: null, failures: [] });
      return { kind: 'stopped', reason: `stopped during step ${index}` };
    }
    if (!failure) {
      const commit = await commitAll(worktree, `step ${index}: ${step.title}`);
      store.tx(() => {
        store.finishAttempt(runId, attemptId, {
          ...finish, outcome: flaky ? 'flaky' : 'passed', errorClass: null, errorMessage: null,
          summary: notes.length ? notes.join('; ') : 'gates passed', failures: [],
        });
        store.completeStep(runId, index, commit);
      });
      return { kind: 'done', commit };
    }

    const fp = failure.agentFatal || failure.errorClass === 'no_change' ? null : fingerprint({ errorClass: failure.errorClass, failures: failure.failures, output: failure.gate?.output ?? failure.message, root: worktree });
    let sameInARow = 1;
    for (let i = fingerprints.length - 1; i >= 0 && fp !== null && fingerprints[i] === fp; i--) sameInARow++;
    fingerprints.push(fp);
    const facts: AttemptFacts = { n, outcome: failure.gate ? 'failed' : 'error', errorClass: failure.errorClass, message: failure.message, failedTests: failure.failures.map((t) => t.name) };
    const classRetriesUsed = history.filter((h) => h.errorClass === failure.errorClass).length;
    history.push(facts);
    store.finishAttempt(runId, attemptId, {
      ...finish, outcome: facts.outcome as 'failed' | 'error', errorClass: failure.errorClass, errorMessage: failure.message,
      summary: `${failure.errorClass}: ${failure.message}`, failures: failure.failures, fingerprint: fp,
    });

    const validated = await runValidators(policy, { worktree, env: deps.env, jail: deps.jail, signal: ctx.signal, agent, agentConfig, system: ctx.system, context: ctx.context, store, runId, attemptId, failure });
    const decision = decideAfterFailure({
      policy, attempt: n, errorClass: failure.errorClass, message: failure.message, classRetriesUsed, agentFatal: failure.agentFatal,
      retryAfterS: failure.retryAfterS, failedGates: failure.failedGates, validated, active, sameFailureInARow: sameInARow, rng: deps.rng,
    });
    store.recordDecision(runId, attemptId, index, n, { ...decision, overrides: { ...decision.overrides }, fingerprint: fp });

    if (decision.action === 'fatal' || decision.action === 'escalate' || decision.action === 'done') {
      const summary = attemptsSummary(history, remainingIssues(failure));
      const reason = `step ${index} "${step.title}" ${decision.action === 'escalate' ? 'needs you' : 'failed'}: ${decision.reason}`;
      return decision.action === 'escalate' ? { kind: 'escalate', reason, summary } : { kind: 'fatal', reason, summary, errorClass: failure.errorClass };
    }
    const wakeAt = new Date(deps.now().getTime() + decision.delayS * 1000).toISOString();
    if (decision.action === 'wait') return { kind: 'parked', reason: decision.reason, wakeAt };
    if (decision.delayS > 0) {
      store.setRunStatus(runId, 'waiting', decision.reason, { wakeAt });
      await deps.sleep(decision.delayS * 1000, AbortSignal.any([ctx.signal, ctx.skipWait()])).catch(() => undefined);
      if (ctx.signal.aborted) return { kind: 'stopped', reason: `stopped while waiting to retry step ${index}` };
      store.setRunStatus(runId, 'running', null);
    }
    if (failure.errorClass === 'git_conflict') {
      // The one conflict retry starts from a tree with no half-done rebase or merge; the conflict itself is in the error context.
      const aborted = await abortInProgress(worktree);
      if (aborted.length) store.event(runId, 'log', { level: 'info', message: `step ${index}: aborted the ${aborted.join(', ')} left in progress before retrying` });
    }
    active = decision.overrides;
    lastTree = tree;
    lastFailure = failure;
    lastDiff = diff;
    n++;
  }
}

interface ValidatorContext {
  worktree: string;
  env: NodeJS.ProcessEnv;
  jail?: RunJail;
  signal: AbortSignal;
  agent: Agent;
  agentConfig: AgentConfig;
  system: string;
  context: string;
  store: Store;
  runId: string;
  attemptId: number;
  failure: Failure;
}

/**
 * Evaluates the `validate` retry entries. `assess: <question>` asks the agent (one turn, its answer must say true or false);
 * anything else is a command run in the worktree (true when it exits 0 and does not print "false" last).
 */
async function runValidators(policy: Policy, v: ValidatorContext): Promise<Map<number, boolean>> {
  const out = new Map<number, boolean>();
  for (const [i, e] of policy.entries.entries()) {
    if (e.validate === undefined) continue;
    const assess = /^assess:\s*([\s\S]+)$/.exec(e.validate);
    if (assess) {
      const question = assess[1] as string;
      const result = await v.agent.run({
        worktree: v.worktree, system: v.system, context: v.context, model: v.agentConfig.model, maxTurns: 1, maxTokens: 512,
        session: 'new', sessionId: null, signal: v.signal,
        prompt: `Answer with one word, true or false, and nothing else.\n\n${question}\n\nThe last attempt failed with ${v.failure.errorClass}: ${v.failure.message}`,
        onUsage: (model, usage, costUsd) => v.store.recordApiCall(v.runId, v.attemptId, { model, ...usage, costUsd }),
        onTranscript: () => undefined,
      });
      const answer = result.transcript.filter((t) => t.kind === 'text').map((t) => t.text).join(' ');
      const verdict = [...answer.toLowerCase().matchAll(/\b(true|false)\b/g)].at(-1)?.[1];
      out.set(i, verdict === 'true');
      v.store.event(v.runId, 'log', { level: 'info', message: `retry entry ${i + 1} assessment: ${verdict ?? 'no answer'} (${question.slice(0, 80)})` });
      continue;
    }
    const r = await runGate({ name: `validate[${i}]`, run: e.validate, timeoutS: 120 }, { cwd: v.worktree, env: v.env, jail: v.jail, signal: v.signal });
    const last = r.output.trim().split('\n').at(-1)?.trim().toLowerCase() ?? '';
    out.set(i, r.passed && last !== 'false');
  }
  return out;
}
