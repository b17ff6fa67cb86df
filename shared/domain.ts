// Domain vocabulary shared by the engine, the CLI and the renderer: statuses, error classes, the status document.
import { z } from 'zod';
import { ErrorClass } from './error-class';
import { plainLine } from './terminal-text';
import { WorktreeEnvDoc } from './worktree-env';
import { PrDoc } from './pull-request';

export const RUN_STATUSES = [
  'planning',
  'waiting_approval',
  /** Waiting for a free slot (Settings › Concurrency, `ratchet run --queue`). */
  'queued',
  'running',
  'waiting',
  'paused',
  'failed',
  'succeeded',
  'cancelled',
  'interrupted',
] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;

/**
 * Why a run has the status it has, stable for code that decides by it (which budget stopped it, which actions its page
 * offers); the reason text beside it is the words the terminal prints and may change. The run machine (run/run-machine.ts)
 * sets one with every status it gives a reason; null when a status needs none (running, succeeded), or a row written
 * before reason codes (migration 17).
 */
export const RUN_REASON_CODES = [
  /** Paused after a step or at a phase's end, as auto-progress asked (one step / one phase at a time). */
  'auto_progress_step',
  'auto_progress_phase',
  /** Paused after a step because the user answered "no" to going on. */
  'paused_by_user',
  /** The user's Stop (cancelled): during a step, the worktree's preparation, a wait to retry. */
  'stopped_by_user',
  /** Stopped, not by the user: the process running it was stopped (Ctrl-C, the app quitting); paused. */
  'process_stopped',
  /** A step's retries (or its policy) handed it to the user: paused. */
  'step_needs_you',
  /** A step failed for good (its retries spent, an error no retry fixes, a sandbox violation): failed. */
  'step_failed',
  /** A retry waits for its time with no process holding the run (the scheduler wakes it). */
  'retry_parked',
  /** A retry's backoff inside the running step. */
  'retry_backoff',
  /** The API key is rate-limited (this run's or another's 429): every run using it waits. */
  'api_rate_limited',
  'task_budget',
  'daily_budget',
  /** The worktree could not be made ready (setup, a leak check, the baseline): failed before any step. */
  'environment_failed',
  /** Something threw in the run loop: failed. */
  'internal_error',
  'plan_awaiting_approval',
  'plan_approved',
  /** Nobody holds the run any more (its process died or its lease ran out): interrupted. */
  'process_lost',
  /** Queued for a free slot; its turn came (starting); taken out of the queue by the user before it started. */
  'waiting_for_slot',
  'queue_turn',
  'removed_from_queue',
  /** Rebuilt from git by `ratchet recover` with no state of its own kept there: interrupted. */
  'rebuilt_from_git',
] as const;
export const RunReasonCode = z.enum(RUN_REASON_CODES);
export type RunReasonCode = z.infer<typeof RunReasonCode>;

export const STEP_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped'] as const;
export const StepStatus = z.enum(STEP_STATUSES);
export type StepStatus = z.infer<typeof StepStatus>;

// The error classes live with their labels (error-classes.ts), so worktree-env.ts can name them without importing this file.
export { ERROR_CLASSES } from './error-classes';
export { ErrorClass } from './error-class';

/** How one attempt ended. `running` only while it is under way. */
/** `flaky`: the gate failed, then passed on a re-run of the unchanged tree, so the step went on. */
/** `red`: a test-first step's test attempt (`tdd`): its new test fails as it should before the implementation. */
export const ATTEMPT_OUTCOMES = ['running', 'passed', 'flaky', 'failed', 'error', 'interrupted', 'red'] as const;
export const AttemptOutcome = z.enum(ATTEMPT_OUTCOMES);
export type AttemptOutcome = z.infer<typeof AttemptOutcome>;

export const DecisionDoc = z.object({
  action: z.enum(['retry', 'fatal', 'escalate', 'wait', 'done']),
  reason: z.string(),
  delayS: z.number(),
  overrides: z.record(z.string(), z.unknown()),
});
export type DecisionDoc = z.infer<typeof DecisionDoc>;

/** A failing test parsed from a gate's output or report. */
export const FailedTestDoc = z.object({
  name: z.string(),
  message: z.string().nullable(),
  expected: z.string().nullable(),
  actual: z.string().nullable(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  /** 'compile' for a compiler or linter error (tsc, eslint, gcc, rustc, go build/vet, javac, Python SyntaxError/ImportError); absent or 'test' for a failing test. */
  kind: z.enum(['test', 'compile']).optional(),
  /** Column of `line`, when the tool printed one. */
  column: z.number().int().nullable().optional(),
  /** The tool's own code for the error: TS2322, E0308, no-undef. */
  code: z.string().nullable().optional(),
});
export type FailedTest = z.infer<typeof FailedTestDoc>;

/** A failing test as the status document gives it. */
export const AttemptFailureDoc = z.object({
  name: z.string(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  expected: z.string().nullable(),
  actual: z.string().nullable(),
});
export type AttemptFailureDoc = z.infer<typeof AttemptFailureDoc>;

export const AttemptDoc = z.object({
  n: z.number().int().min(1),
  outcome: AttemptOutcome,
  errorClass: ErrorClass.nullable(),
  model: z.string().nullable(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cacheReadTokens: z.number().int(),
  cacheWriteTokens: z.number().int(),
  costUsd: z.number().nullable(),
  /** What the policy decided after this attempt; null while running, and for the attempt that passed. */
  decision: DecisionDoc.nullable(),
  /** Hash of the normalised failure; equal fingerprints mean the same failure came back. */
  fingerprint: z.string().nullable(),
  /** The execution this attempt belonged to: 0 for the first run, k after the k-th retry or resume (each starts the step's retry accounting afresh). */
  round: z.number().int().min(0).default(0),
  /** What the attempt failed with, in a sentence ("the gate ran no tests", "your attempt changed no files"); null when it passed. */
  message: z.string().nullable().optional(),
  /** The failing tests and errors parsed from its gates' whole output (or report); [] when none; absent in documents from before it. */
  failures: z.array(AttemptFailureDoc).optional(),
});
export type AttemptDoc = z.infer<typeof AttemptDoc>;

export const StepDoc = z.object({
  index: z.number().int().min(1),
  title: z.string(),
  status: StepStatus,
  commit: z.string().nullable(),
  attempts: z.array(AttemptDoc),
});
export type StepDoc = z.infer<typeof StepDoc>;

/** One retry or resume of a run: where it resumed from, and what it spent after (until the next one). */
export const ResumeDoc = z.object({
  kind: z.enum(['retry', 'resume']),
  at: z.string(),
  resumedFrom: z.object({ step: z.number().int().nullable(), status: z.string() }),
  turnBudget: z.number().int().nullable(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cacheReadTokens: z.number().int(),
  cacheWriteTokens: z.number().int(),
  costUsd: z.number(),
});
export type ResumeDoc = z.infer<typeof ResumeDoc>;

/** Where a value of the retry policy came from, least to most specific (`raised`: `ratchet resume --budget`). */
export const PolicySource = z.enum(['default', 'preset', 'workflow', 'task', 'step', 'raised']);
export type PolicySource = z.infer<typeof PolicySource>;

/** The retry policy in force for a run (task level) and each step's own `max_retries`, with where each value came from. */
export const PolicyDoc = z.object({
  maxRetries: z.number().int(),
  timeoutSeconds: z.number(),
  allowRetryOn: z.array(z.string()).nullable(),
  backoff: z.object({ base_s: z.number(), max_s: z.number(), jitter: z.number() }),
  budget: z.object({ taskUsd: z.number().nullable(), dailyUsd: z.number().nullable(), alertAt: z.number() }),
  sources: z.record(z.string(), PolicySource),
  steps: z.array(z.object({ index: z.number().int(), maxRetries: z.number().int(), source: PolicySource })),
});
export type PolicyDoc = z.infer<typeof PolicyDoc>;

/** How much history an estimate rests on: `ok` this repository's and workflow's own runs, `low` fewer (the whole store helps), `none` the plan alone. */
export const EstimateConfidence = z.enum(['none', 'low', 'ok']);
export type EstimateConfidence = z.infer<typeof EstimateConfidence>;

/** A run's cost and wall time before it starts (`ratchet estimate --json`, the status document's `estimate`). A contract: keep it stable. */
export const RunEstimate = z.object({
  usd: z.object({ p50: z.number().min(0), p90: z.number().min(0) }),
  minutes: z.object({ p50: z.number().min(0), p90: z.number().min(0) }),
  /** How many past runs it was made from (0: from the plan, the model's prices and typical tokens). */
  basis: z.object({ runs: z.number().int().min(0) }),
  confidence: EstimateConfidence,
});
export type RunEstimate = z.infer<typeof RunEstimate>;

/** One step's share of an estimate: what the step itself would cost and take (nothing when the run stops before it). */
export const StepEstimate = z.object({
  usd: z.object({ p50: z.number().min(0), p90: z.number().min(0) }),
  minutes: z.object({ p50: z.number().min(0), p90: z.number().min(0) }),
});
export type StepEstimate = z.infer<typeof StepEstimate>;

/** The estimate of a task about to start (New task, `runs.estimate`): the run's, and each step's share in plan order. */
export const PlanEstimate = RunEstimate.extend({ steps: z.array(StepEstimate) });
export type PlanEstimate = z.infer<typeof PlanEstimate>;

/** The status document printed by `ratchet run --json` and `ratchet status <id> --json`. A contract: keep it stable. */
export const StatusDocument = z.object({
  id: z.string(),
  status: RunStatus,
  reason: z.string().nullable(),
  /** The reason as a code, for code that decides by it (RunReasonCode); null: none, or a run from before codes. */
  reasonCode: RunReasonCode.nullable().optional(),
  repo: z.string(),
  branch: z.string(),
  worktree: z.string(),
  baseCommit: z.string(),
  costUsd: z.number().nullable(),
  /**
   * Whether every step of the plan runs a gate. false: the run was started without checks (`--no-gates`, the app's
   * "Run without checks"), so a success says only that the agent finished. Absent in documents from before the field.
   */
  checked: z.boolean().optional(),
  steps: z.array(StepDoc),
  /** Every retry and resume, oldest first; empty for a run that went straight through. */
  resumes: z.array(ResumeDoc),
  /** The retry policy in force and where each value came from (default / preset / workflow / task / step / raised). */
  policy: PolicyDoc.optional(),
  /** What made the worktree ready to test: files copied, dependencies reused, the last setup (its time), the baseline check. */
  environment: WorktreeEnvDoc.optional(),
  /** The run's pull request (`ratchet pr`); null: none opened. Absent in documents from before the field. */
  pr: PrDoc.nullable().optional(),
  /** The estimate made when the run started; null for a run from before estimates. */
  estimate: RunEstimate.nullable().optional(),
  /**
   * The schedule whose tick started the run (`ratchet schedule`); null or absent: started by hand. `cron` and `tz` are
   * null once that schedule is removed.
   */
  schedule: z.object({ id: z.string(), cron: z.string().nullable(), tz: z.string().nullable() }).nullable().optional(),
});
export type StatusDocument = z.infer<typeof StatusDocument>;

export const RunListItem = z.object({
  id: z.string(),
  status: RunStatus,
  /** Why it has that status, as a code (RunReasonCode); null: none, or a run from before codes. */
  reasonCode: RunReasonCode.nullable().optional(),
  repo: z.string(),
  branch: z.string(),
  createdAt: z.string(),
  /** false: a run started without checks (no gate runs in some step); see StatusDocument's `checked`. */
  checked: z.boolean().optional(),
});
export type RunListItem = z.infer<typeof RunListItem>;

/** A step's (or the workflow's default) test-first setting: `true`, `false`, or `{ tests: [globs] }` naming the test files. */
export const TddSetting = z.union([
  z.boolean(),
  z.object({ tests: z.array(z.string().min(1)).min(1, 'name at least one glob of test files, e.g. "spec/**"') }).strict(),
]);
export type TddSetting = z.infer<typeof TddSetting>;

/** One step of a plan, as written in a workflow file, drafted by the agent or typed in the app. */
export const StepSpec = z
  .object({
    // One line of plain text whatever wrote it (a workflow file, a drafted plan, the app, the CLI): it becomes a commit subject.
    title: z.string().transform(plainLine).pipe(z.string().min(1, 'a step needs a title')),
    prompt: z.string().default(''),
    gates: z.array(z.string().min(1)).optional(),
    /** Optional grouping: resume can run to the end of a phase. */
    phase: z.string().min(1).optional(),
    /** Retries for test failures in this step; overrides the task's and the workflow's `max_retries`. */
    max_retries: z.number().int().min(0).optional(),
    /** An attempt that changes no file fails the step's attempt (`empty_attempt`) unless this is true. */
    allow_empty: z.boolean().optional(),
    /**
     * Test first: the step's first attempt only adds a test that fails (checked by running the gates), then the next
     * attempts implement the change. `{ tests: globs }` says which files are tests when the usual names do not.
     */
    tdd: TddSetting.optional(),
  })
  .strict();
export type StepSpec = z.infer<typeof StepSpec>;
