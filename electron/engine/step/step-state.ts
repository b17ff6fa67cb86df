// The step's life as data: one serialisable state (its retry accounting included), the events that move it, and the commands it asks the adapters to carry out.
import type { ErrorClass } from '../../../shared/domain';
import type { AgentConfig, StepConfig } from '../workflow/schema';
import type { Failure } from '../failures/failure';
import type { BudgetFacts } from '../policy/budget';
import type { Decision } from '../policy/decide';
import type { Policy } from '../policy/policy';
import type { TemplateState } from '../prompts/prompts';
import type { Overrides } from '../policy/retry-entries';
import type { StepOutcome } from '../run/step-outcome';
import type { RedTest, TddConfig } from './tdd';

export type { StepOutcome } from '../run/step-outcome';

/** What the machine needs to know about the step and its policy; fixed for the step's life (not part of the state). */
export interface MachineConfig {
  index: number;
  totalSteps: number;
  step: StepConfig;
  gateCommands: readonly string[];
  agent: AgentConfig;
  policy: Policy;
  /** The worktree, for fingerprints (paths under it become project-relative). */
  worktree: string;
  /** The agent's own time limit per attempt (timeout_seconds). */
  agentTimeoutS: number;
  rng: () => number;
  /** Test first (`tdd`): the first attempt writes a test that must fail before the change is implemented. */
  tdd?: TddConfig | null;
}

/** One finished attempt, as the summary and the accounting need it. */
export interface AttemptRecord {
  n: number;
  round: number;
  outcome: string;
  errorClass: ErrorClass | null;
  message: string | null;
  /** Identities of the failing tests (attempt-summary's `testIdentity`). */
  failedTests: string[];
  fingerprint: string | null;
  /** The agent's API or process failed (not a gate): its class limits decide, whatever the retry entries say. */
  apiFault: boolean;
  /** The decision's overrides after this attempt (sticky for the next one). */
  overrides: Overrides | null;
}

/** The retry accounting of one round (an execution: the first run, or a retry or resume). A new round starts it afresh. */
export interface Accounting {
  /** Attempts of this round (every kind). */
  attempts: number;
  /** Attempts of this round that were not API faults: what retry entries' `attempt: N` and `exit: N` count. */
  entryAttempts: number;
  /** Failures per class in this round: the retries each class has used. */
  classRetries: Partial<Record<ErrorClass, number>>;
  /** Classes that failed in this round, in order of first appearance (for "attempt k of n"). */
  classesSeen: ErrorClass[];
  /** Fingerprints of this round's failed attempts, oldest first. */
  fingerprints: Array<string | null>;
  /** Retry entries' overrides in force (sticky). */
  active: Overrides;
  /** The one rebase onto a moved base a git conflict gets has been tried. */
  rebaseTried: boolean;
  /** Files git reported in conflict during this round. */
  conflictFiles: string[];
}

/** The attempt in flight. */
export interface CurrentAttempt {
  n: number;
  /** Its number within the round, and the most attempts the policy can give the step (the "k of n" label). */
  k: number;
  of: number;
  agentKey: string;
  attemptId: number | null;
  tree: string | null;
  treeRef: string | null;
  diff: string | null;
  sessionId: string | null;
  /** The failure being decided on, between the attempt's end and the decision. */
  failure: Failure | null;
  /** A test-first step's test attempt: the test files it changed (checked before its gates run). */
  testFiles?: string[];
  fingerprint: string | null;
}

export type Phase = 'idle' | 'budget' | 'agent' | 'gates' | 'validating' | 'committing' | 'waiting' | 'rebasing' | 'finished';

export interface StepState {
  index: number;
  round: number;
  phase: Phase;
  /** The commit the step starts from (moves when the branch is rebased onto a moved base). */
  stepStart: string;
  /** Number of the next attempt (attempt numbers never repeat within a step, across rounds). */
  nextN: number;
  /** Every attempt of the step, every round. */
  history: AttemptRecord[];
  acct: Accounting;
  /** The failure the next attempt is told about (the last real one: never `no_change`). */
  lastFailure: Failure | null;
  lastDiff: string | null;
  /** Tree of the last attempt of this round: an attempt that leaves it unchanged changed nothing. */
  lastTree: string | null;
  lastSession: { id: string | null; agent: string } | null;
  prev: TemplateState | undefined;
  /** Every failure of this step so far, oldest first ({errors} in templates). */
  errorLog: string[];
  /** on_repeat's change of strategy for the next attempt. */
  strategy: Decision['strategy'] | null;
  /** What the next attempt's prompt must also say (a rebase, the files in conflict). */
  notes: string[];
  current: CurrentAttempt | null;
  outcome: StepOutcome | null;
  /** A test-first step's test, once the gates failed on it (any round): until then its attempts write the test. */
  red: RedTest | null;
}

/** What an attempt left behind in the worktree (its tree is kept under `treeRef`). */
export interface AttemptArtifacts {
  attemptId: number;
  sessionId: string | null;
  tree: string;
  treeRef: string;
  diff: string;
}

/**
 * What happened, as the step runner tells the machine. `draw`: a random number in [0, 1) drawn by the runner for this
 * event (the backoff's jitter, if the event leads to a retry): carried in the event, so a run replays from its events the
 * same way; without one the machine draws from its config's rng.
 */
export type StepEvent = StepEventBody & { draw?: number };

type StepEventBody =
  | { type: 'start' }
  /** A retry or resume: this step's retry accounting starts afresh; its history stays. */
  | { type: 'roundStarted'; round: number }
  /** What has been spent (the machine applies the task and daily budgets to it); `dayNext` is when a daily budget renews. */
  | { type: 'budgetChecked'; facts: BudgetFacts; dayNext: string }
  /**
   * `unchanged`: the attempt's tree is the step's start tree (the agent changed no file). `changed`: the files its
   * tree changes since the step's start, when the runAgent command asked for them (a test-first step's test attempt).
   */
  | ({ type: 'agentFinished'; timedOut: boolean; unchanged?: boolean; changed?: string[] } & AttemptArtifacts)
  | ({ type: 'apiError'; errorClass: ErrorClass; message: string; retriable: boolean; retryAfterS: number | null } & AttemptArtifacts)
  | { type: 'gatesFinished'; failure: Failure | null; flaky: boolean; notes: string[] }
  | { type: 'validated'; results: Array<[number, boolean]> }
  | { type: 'committed'; sha: string }
  /** The step's commit was refused because of conflicted files (a merge or rebase the agent left). */
  | { type: 'commitConflicted'; files: string[]; message: string }
  | { type: 'timerFired' }
  | { type: 'rebased'; moved: boolean; ok: boolean; base: string | null; onto: string | null; files: string[]; newStart: string | null }
  /** The user stopped the run; `attempt` when an attempt's agent had just ended. */
  | { type: 'stopped'; attempt?: AttemptArtifacts }
  /** The agent stopped before an API call the budget (plus its 10 %) could not cover: the run pauses on its budget. */
  | ({ type: 'budgetStopped'; budget: 'task' | 'daily'; reason: string; wakeAt: string | null } & AttemptArtifacts)
  /**
   * Ratchet's git refused the worktree after the agent, a gate or a validator: a rewritten `.git` file or a nested git
   * dir (sandbox_violation, never retried; nothing of the attempt was staged). `attemptId`/`sessionId` when the agent's
   * attempt had just ended (it has no tree: nothing was snapshotted).
   */
  | { type: 'worktreeViolated'; message: string; attemptId?: number; sessionId?: string | null };

export interface FinishData {
  outcome: 'passed' | 'flaky' | 'failed' | 'error' | 'interrupted' | 'red';
  errorClass: ErrorClass | null;
  errorMessage: string | null;
  summary: string | null;
  failures: Failure['failures'];
  fingerprint: string | null;
  treeRef: string | null;
  treeSha: string | null;
  diff: string | null;
  sessionId: string | null;
}

export type StepCommand =
  | { kind: 'checkBudget' }
  | { kind: 'log'; level: 'info' | 'warn'; message: string }
  /** Spending crossed a budget's alert_at (raised once per task, once a day). */
  | { kind: 'budgetAlert'; budget: 'task' | 'daily'; spentUsd: number; limitUsd: number }
  /** `git reset --hard` to `to` and `git clean`; then `tree`'s files put back (a test-first step's red test), HEAD unmoved. */
  | { kind: 'resetWorktree'; to: string; tree?: string }
  | { kind: 'abortInProgress' }
  /** Rebase the run's branch onto its base branch's tip, once; abort cleanly when it conflicts. */
  | { kind: 'rebase' }
  | {
      kind: 'runAgent';
      n: number;
      round: number;
      prompt: string;
      agent: AgentConfig;
      session: 'new' | 'continue';
      sessionId: string | null;
      overrides: Overrides;
      preCommit: string;
      /** Report the files the attempt changed since the step's start (`changed` in agentFinished). */
      listChanged?: boolean;
    }
  | { kind: 'runGates'; attemptId: number; timeoutMultiplier: number }
  | { kind: 'finishAttempt'; attemptId: number; finish: FinishData }
  | { kind: 'validate'; attemptId: number; failure: Failure; agent: AgentConfig }
  | { kind: 'recordDecision'; attemptId: number; n: number; decision: Decision; fingerprint: string | null }
  | { kind: 'commit'; attemptId: number; message: string; finish: FinishData }
  | { kind: 'sleep'; delayS: number; wakeAt: string; reason: string }
  /** Tell the user's notification targets (ntfy, webhook): the step passed after more than one attempt. */
  | { kind: 'notify'; event: 'step.succeeded_after_retry'; attempts: number; maxAttempts: number }
  | { kind: 'finish'; outcome: StepOutcome };

/** Commands after which the adapter waits for the event they produce (at most one per batch, always last). */
export const AWAITED: ReadonlySet<StepCommand['kind']> = new Set(['checkBudget', 'rebase', 'runAgent', 'runGates', 'validate', 'commit', 'sleep']);

export function emptyAccounting(): Accounting {
  return { attempts: 0, entryAttempts: 0, classRetries: {}, classesSeen: [], fingerprints: [], active: {}, rebaseTried: false, conflictFiles: [] };
}
