// The rows and inputs of the SQLite store, as the engine sees them.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AttemptOutcome, ErrorClass, RunReasonCode, RunStatus, StepStatus } from '../../../shared/domain';
import type { GateResult } from '../gates/run-gate';

/** The store's database handle: what a module hands to the store's queries (it writes no SQL of its own). */
export type StoreDb = Database.Database;

export interface EngineEvent {
  /** Global, increasing: a client that saw id N asks for events after N. */
  id: number;
  runId: string;
  at: string;
  type: string;
  payload: Record<string, unknown>;
}

/**
 * Whether every step of the run's plan runs a gate (1) or some step none (0, a run started with --no-gates): read from
 * the task's workflow, whose steps follow every plan revision. The rule is workflow/gate-coverage.ts's uncoveredSteps:
 * a step's own `gates`, else all the workflow defines; a run with no gate anywhere, or a step with `gates: []`, is unchecked.
 */
const RUN_CHECKED = `(COALESCE(json_extract(tasks.workflow_json, '$.gates'), '{}') <> '{}'
    AND NOT EXISTS (SELECT 1 FROM json_each(tasks.workflow_json, '$.steps') st WHERE json_array_length(st.value, '$.gates') = 0))`;

/** The columns of a RunRow: the run, its repository's path, its task's title, whether its plan is checked. Needs runs joined to repos and tasks. */
export const RUN_COLUMNS = `runs.*, repos.path AS repo_path, tasks.title AS task_title, ${RUN_CHECKED} AS checked`;

export interface RunRow {
  id: string;
  task_id: string;
  repo_id: string;
  status: RunStatus;
  reason: string | null;
  /** Why, as a code the app decides by (migration 17); null: no special reason, or a row written before codes. */
  reason_code: RunReasonCode | null;
  base_branch: string | null;
  base_commit: string;
  branch: string;
  worktree: string;
  plan_revision: number;
  owner_pid: number | null;
  owner_host: string | null;
  /** The owner's lease: a random token per claim, and when it ends unless the heartbeat renews it. */
  owner_token: string | null;
  lease_until: string | null;
  heartbeat_at: string | null;
  wake_at: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** A task budget raised for this run after it paused for its budget (migration 5); null: the workflow's. */
  task_budget_usd?: number | null;
  /** Executions so far after the first: each retry or resume that starts a round adds one. */
  round: number;
  /** The local calendar day it was created (the stats summary's day; migration 9). */
  day?: string | null;
  /** The workflow it follows (migration 20; estimate/workflow-key.ts); null for runs from before. */
  workflow_key?: string | null;
  /** The estimate it started with, JSON of shared/domain.ts RunEstimate (migration 20); null: none made. */
  estimate_json?: string | null;
  repo_path: string;
  task_title: string;
  /** 1: every step of the plan runs a gate; 0: some step none (started with --no-gates). See RUN_COLUMNS. */
  checked: 0 | 1;
}

/** A runs-list row: the run with its step counts and cost (null when a model's price is unknown). */
export interface RunSummaryRow extends RunRow {
  steps_done: number;
  steps_total: number;
  cost_usd: number | null;
}

export interface StepRunRow {
  run_id: string;
  step_index: number;
  title: string;
  phase: string | null;
  status: StepStatus;
  commit_sha: string | null;
  pre_commit: string | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface AttemptRow {
  id: number;
  run_id: string;
  step_index: number;
  n: number;
  outcome: AttemptOutcome;
  error_class: ErrorClass | null;
  error_message: string | null;
  summary: string | null;
  agent_kind: string;
  model: string | null;
  session_id: string | null;
  tree_ref: string | null;
  tree_sha: string | null;
  failures_json: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_usd: number | null;
  cost_known: number;
  decision_json: string | null;
  fingerprint: string | null;
  overrides_json: string;
  /** The run's round (execution) this attempt belongs to: 0 for the first run, k after the k-th retry or resume. */
  round: number;
  started_at: string;
  finished_at: string | null;
}

/** An attempt's large texts, kept apart from its row (attempt_prompts, attempt_results). */
export interface AttemptTexts {
  prompt: string;
  transcript_json: string;
  diff: string | null;
}

/** A gate's result as stored: what the runner measured, under the gate's name, with its parsed failures. */
export type GateResultInput = Pick<GateResult, 'command' | 'passed' | 'exitCode' | 'signal' | 'timedOut' | 'durationMs' | 'output' | 'outputBytes'> & {
  gate: string;
  failures: unknown[];
};

export interface UsageInput {
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** null when the model's price is unknown. */
  costUsd: number | null;
}

export interface AttemptFinish {
  outcome: AttemptOutcome;
  fingerprint?: string | null;
  errorClass: ErrorClass | null;
  errorMessage: string | null;
  summary: string | null;
  treeRef: string | null;
  treeSha: string | null;
  diff: string | null;
  failures: unknown[];
  transcript: unknown[];
  sessionId: string | null;
}

export function newId(): string {
  // Time-ordered prefix so ids sort by creation; random suffix so two processes never collide.
  return Date.now().toString(36).padStart(9, '0') + randomBytes(4).toString('hex');
}
