// Carries out the step machine's runAgent command: the agent's attempt in the worktree, its cost, the guard after it, and the tree and diff it left.
import { recordApiHold, waitForApiHold } from '../run/api-hold';
import type { Agent } from '../agents/agent';
import { boundText } from '../gates/bounded-output';
import { changedPaths, diffTrees, saveAttemptRef, snapshotTree } from '../git/repo-git';
import { snapshotRepoConfig, type RepoConfigSnapshot } from '../git/repo-config-guard';
import type { PinnedWorktree } from '../git/worktree-integrity';
import { budgetCapReason, dayBounds, dayFacts, spendLimit } from '../policy/budget';
import type { StepContext, StepDeps } from './step-ports';
import type { StepCommand, StepEvent } from './step-state';

const MAX_DIFF_CHARS = 200_000;

/** What the adapters keep outside the (serialisable) step state, between commands. */
export interface AttemptScratch {
  /** The agent of the attempt in flight. */
  agent: Agent | null;
  /** Its transcript, stored with the attempt when it finishes. */
  transcript: unknown[];
  /** The repository's config as it was before the attempt: put back after the agent, and after the gates and validators. */
  configSnapshot: RepoConfigSnapshot | null;
  /** The attempt's diff, for the classifier: an import the change added is the agent's, not the environment's. */
  diff: string | null;
}

/** Where an attempt runs: the step's ports and context, its pinned worktree, and the runner's shared helpers. */
export interface AttemptSite {
  deps: StepDeps;
  ctx: StepContext;
  wt: PinnedWorktree;
  scratch: AttemptScratch;
  /** The tree of a commit (cached per step). */
  startTree(sha: string): Promise<string>;
  /** After a sandboxed process ran in the worktree: its config put back, and a description of what is wrong with the worktree, or null. */
  guardAfter(): Promise<string | null>;
}

/** Runs one agent attempt for the step and tells the machine how it ended. */
export async function runAgentAttempt(site: AttemptSite, c: Extract<StepCommand, { kind: 'runAgent' }>): Promise<StepEvent> {
  const { deps, ctx, wt, scratch } = site;
  const { store } = deps;
  const { runId, worktree, workflow, policy, index } = ctx;
  // What the run and today have spent against their budgets, read before each API call (the agent's spend limit).
  const spendFacts = () => ({
    taskUsd: policy.budget.taskUsd,
    taskSpent: store.taskSpentUsd(runId),
    ...dayFacts(store, deps, policy.budget.dailyUsd, dayBounds(deps.now()).start),
  });
  // A 429 on any run using this API key holds this one too, until its retry-after.
  if (!(await waitForApiHold(store, deps, runId, ctx.signal, ctx.skipWait()))) return { type: 'stopped' };
  const agent = deps.agentFor(c.agent);
  scratch.agent = agent;
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
  scratch.configSnapshot = await snapshotRepoConfig(wt);
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
  scratch.transcript = result.transcript;
  // [git hardening] revert config the agent wrote (fsmonitor, filters…) before Ratchet's own git runs again.
  // [git walls] and refuse a worktree whose .git file was rewritten or that holds a nested git dir: nothing is staged.
  const violation = await site.guardAfter();
  if (violation) return { type: 'worktreeViolated', message: violation, attemptId, sessionId: result.sessionId };
  // Keep the attempt's tree whatever happens next, so it can be diffed or restored.
  // Independent git work runs side by side: reads of objects never wait on the index or a ref being written.
  const [tree, from] = await Promise.all([snapshotTree(wt, { checked: true }), site.startTree(c.preCommit)]);
  const treeRef = `refs/ratchet/${runId}/${index}/${c.n}`;
  const [, fullDiff] = await Promise.all([saveAttemptRef(wt, treeRef, tree, c.preCommit, `ratchet: step ${index} attempt ${c.n}`), diffTrees(wt, from, tree)]);
  const diff = boundText(fullDiff, MAX_DIFF_CHARS);
  scratch.diff = diff;
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
