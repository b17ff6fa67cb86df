// Runs one step to its end: attempts (agent, snapshot, gates), classification, retry decisions, and the step commit.
import type { ErrorClass } from '../../../shared/domain';
import type { Agent, AgentRunResult } from '../agents/agent';
import { runGate, type GateResult } from '../gates/run-gate';
import { parseFailures, type FailedTest } from '../gates/parse-failures';
import { boundText } from '../gates/bounded-output';
import { classifyGateFailure } from './classify';
import { commitAll, diffTrees, headCommit, saveAttemptRef, snapshotTree, treeOf } from '../git/repo-git';
import type { Store } from '../store/store';
import type { Workflow, StepConfig } from '../workflow/schema';
import { decideAfterFailure, type Decision } from './decide';
import { attemptsSummary, type AttemptFacts } from './attempt-summary';
import { retryContext, stepPrompt } from './prompts';

export interface StepDeps {
  store: Store;
  agent: Agent;
  env: NodeJS.ProcessEnv;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  rng(): number;
}

export interface StepContext {
  runId: string;
  worktree: string;
  workflow: Workflow;
  steps: readonly StepConfig[];
  index: number;
  system: string;
  context: string;
  signal: AbortSignal;
}

export type StepOutcome =
  | { ok: true; commit: string }
  | { ok: false; stopped: boolean; reason: string; summary: string; errorClass: ErrorClass | null };

const MAX_DIFF_CHARS = 200_000;

function stepGates(workflow: Workflow, step: StepConfig): string[] {
  return step.gates ?? Object.keys(workflow.gates);
}

interface Failure {
  errorClass: ErrorClass;
  message: string;
  hints: string[];
  failures: FailedTest[];
  gate: GateResult | null;
  agentFatal: boolean;
  retryAfterS: number | null;
}

function agentFailure(result: AgentRunResult, timedOut: boolean, timeoutS: number): Failure | null {
  if (timedOut) {
    return { errorClass: 'timeout', message: `the agent did not finish within timeout_seconds (${timeoutS} s)`, hints: [], failures: [], gate: null, agentFatal: false, retryAfterS: null };
  }
  if (result.stop !== 'error' || !result.error) return null;
  const e = result.error;
  return { errorClass: e.errorClass, message: e.message, hints: [], failures: [], gate: null, agentFatal: !e.retriable, retryAfterS: e.retryAfterS };
}

/** Runs attempts for step `ctx.index` until its gates pass or the policy stops. */
export async function runStep(deps: StepDeps, ctx: StepContext): Promise<StepOutcome> {
  const { store, agent } = deps;
  const { runId, worktree, workflow, index } = ctx;
  const step = ctx.steps[index - 1];
  if (!step) throw new Error(`step ${index} is not in the plan`);
  const gateNames = stepGates(workflow, step);
  const gateCommands = gateNames.map((g) => workflow.gates[g]?.run ?? g);
  const maxAttempts = workflow.max_retries + 1;

  const stepStart = store.getSteps(runId).find((s) => s.step_index === index)?.pre_commit ?? (await headCommit(worktree));
  const startTree = await treeOf(worktree, stepStart);
  const history: AttemptFacts[] = store.getAttempts(runId, index).map((a) => ({
    n: a.n,
    outcome: a.outcome,
    errorClass: a.error_class,
    message: a.error_message,
    failedTests: (JSON.parse(a.failures_json) as FailedTest[]).map((t) => t.name),
  }));
  let n = history.length + 1;
  let lastTree: string | null = null;
  let lastFailure: Failure | null = null;
  let lastDiff: string | null = null;

  for (;;) {
    const base = stepPrompt(index, ctx.steps.length, step, gateCommands);
    const prompt = lastFailure
      ? `${base}\n\n${retryContext({
          attempt: n,
          maxAttempts,
          errorClass: lastFailure.errorClass,
          message: lastFailure.message,
          gateLabel: lastFailure.gate ? `the \`${lastFailure.gate.name}\` gate (\`${lastFailure.gate.command}\`, exit ${lastFailure.gate.exitCode ?? lastFailure.gate.signal ?? 'none'})` : 'the agent',
          output: lastFailure.gate?.output ?? lastFailure.message,
          failures: lastFailure.failures,
          hints: lastFailure.hints,
          previousDiff: lastDiff,
        })}`
      : base;
    if (n > 1) store.event(runId, 'log', { level: 'info', message: `step ${index}: retry ${n - 1}/${workflow.max_retries}` });
    const attemptId = store.startAttempt({
      runId, stepIndex: index, n, agentKind: agent.kind, model: workflow.agent.model, prompt, preCommit: stepStart,
    });

    const timeout = AbortSignal.timeout(workflow.timeout_seconds * 1000);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    const result = await agent.run({
      worktree,
      system: ctx.system,
      context: ctx.context,
      prompt,
      model: workflow.agent.model,
      maxTurns: workflow.agent.max_turns,
      maxTokens: workflow.agent.max_tokens,
      session: 'new',
      sessionId: null,
      signal,
      onUsage: (model, usage, costUsd) => store.recordApiCall(runId, attemptId, { model, ...usage, costUsd }),
      onTranscript: (entry) => store.event(runId, 'agent.transcript', { attemptId, ...entry, input: entry.input }),
    });
    if (result.reportedCostUsd !== null) {
      store.recordApiCall(runId, attemptId, {
        model: workflow.agent.model, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: result.reportedCostUsd,
      });
    }

    // Keep the attempt's tree whatever happens next, so it can be diffed or restored.
    const tree = await snapshotTree(worktree);
    const ref = `refs/ratchet/${runId}/${index}/${n}`;
    await saveAttemptRef(worktree, ref, tree, stepStart, `ratchet: step ${index} attempt ${n}`);
    const diff = boundText(await diffTrees(worktree, startTree, tree), MAX_DIFF_CHARS);
    const changedNothing = lastTree !== null && tree === lastTree;

    let failure = agentFailure(result, timeout.aborted, workflow.timeout_seconds);
    const gateResults: GateResult[] = [];
    if (!failure && changedNothing) {
      failure = { errorClass: 'no_change', message: 'the agent made no changes since the previous attempt', hints: [], failures: [], gate: null, agentFatal: false, retryAfterS: null };
    }
    if (!failure && !ctx.signal.aborted) {
      for (const name of gateNames) {
        if (ctx.signal.aborted) break;
        const g = workflow.gates[name];
        if (!g) continue;
        store.event(runId, 'gate.started', { attemptId, gate: name, command: g.run });
        const r = await runGate({ name, run: g.run, timeoutS: g.timeout, report: g.report }, { cwd: worktree, env: deps.env, signal: ctx.signal });
        const failures = r.passed ? [] : parseFailures({ output: r.output, reportXml: r.reportXml });
        store.recordGate(runId, attemptId, { ...r, gate: name, failures });
        gateResults.push(r);
        if (!r.passed && !failure) {
          const c = classifyGateFailure(r, failures);
          failure = { errorClass: c.errorClass, message: c.message, hints: c.hints, failures, gate: r, agentFatal: false, retryAfterS: null };
        }
      }
    }

    // A stop during the gates kills them: that is the user's stop, not a crash of the code under test.
    if (ctx.signal.aborted) {
      store.finishAttempt(runId, attemptId, {
        outcome: 'interrupted', errorClass: null, errorMessage: 'stopped by the user', summary: null, treeRef: ref, treeSha: tree,
        diff, failures: [], transcript: result.transcript, sessionId: result.sessionId,
      });
      return { ok: false, stopped: true, reason: `stopped during step ${index}`, summary: attemptsSummary(history), errorClass: null };
    }
    if (!failure) {
      const commit = await commitAll(worktree, `step ${index}: ${step.title}`);
      store.tx(() => {
        store.finishAttempt(runId, attemptId, {
          outcome: 'passed', errorClass: null, errorMessage: null, summary: 'gates passed', treeRef: ref, treeSha: tree, diff,
          failures: [], transcript: result.transcript, sessionId: result.sessionId,
        });
        store.completeStep(runId, index, commit);
      });
      return { ok: true, commit };
    }

    const facts: AttemptFacts = { n, outcome: failure.gate ? 'failed' : 'error', errorClass: failure.errorClass, message: failure.message, failedTests: failure.failures.map((t) => t.name) };
    history.push(facts);
    const decision: Decision = decideAfterFailure({
      attempt: n, maxRetries: workflow.max_retries, errorClass: failure.errorClass, message: failure.message,
      noChange: changedNothing, agentFatal: failure.agentFatal, retryAfterS: failure.retryAfterS, backoff: workflow.backoff, rng: deps.rng,
    });
    store.finishAttempt(runId, attemptId, {
      outcome: facts.outcome as 'failed' | 'error', errorClass: failure.errorClass, errorMessage: failure.message,
      summary: `${failure.errorClass}: ${failure.message}`, treeRef: ref, treeSha: tree, diff, failures: failure.failures,
      transcript: result.transcript, sessionId: result.sessionId,
    });
    store.event(runId, 'decision', { attemptId, step: index, n, ...decision });

    if (decision.action !== 'retry') {
      const remaining = failure.failures.length
        ? failure.failures.map((t) => `${t.name}${t.expected !== null || t.actual !== null ? `: expected ${t.expected ?? '?'}, got ${t.actual ?? '?'}` : t.message ? `: ${t.message.split('\n')[0]}` : ''}`)
        : [`${failure.errorClass}: ${failure.message}`];
      const summary = attemptsSummary(history, remaining);
      return { ok: false, stopped: false, reason: `step ${index} "${step.title}" failed: ${decision.reason}`, summary, errorClass: failure.errorClass };
    }
    if (decision.delayS > 0) {
      const wakeAt = new Date(Date.now() + decision.delayS * 1000).toISOString();
      store.setRunStatus(runId, 'waiting', decision.reason, { wakeAt });
      await deps.sleep(decision.delayS * 1000, ctx.signal).catch(() => undefined);
      if (ctx.signal.aborted) {
        return { ok: false, stopped: true, reason: `stopped while waiting to retry step ${index}`, summary: attemptsSummary(history), errorClass: failure.errorClass };
      }
      store.setRunStatus(runId, 'running', null);
    }
    lastTree = tree;
    lastFailure = failure;
    lastDiff = diff;
    n++;
  }
}
