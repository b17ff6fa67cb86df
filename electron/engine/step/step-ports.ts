// What a step runs against: the run's ports (store, agents, clock, sandbox, notifications) and the step's own context.
import type { Agent } from '../agents/agent';
import type { RunJail } from '../sandbox/os-sandbox';
import type { Store } from '../store/store';
import type { AgentConfig, StepConfig, Workflow } from '../workflow/schema';
import type { WorktreeEnvHooks } from '../worktree-env/run-environment';
import type { SharedDay } from '../policy/budget';
import type { Policy } from '../policy/policy';

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
  /** On a team worker: the team's daily budget and the other workers' spend today (policy/budget.ts dayFacts). */
  sharedDay?: () => SharedDay;
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
