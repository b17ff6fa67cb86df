// Typed queries over the SQLite store. Each state change is one transaction that also appends its event to the log.
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { AttemptOutcome, ErrorClass, RunStatus, StepStatus } from '../../../shared/domain';
import type { EngineEventType, EventPayloadIn } from '../../../shared/engine-events';
import type { Workflow, StepConfig } from '../workflow/schema';
import type { GateResult } from '../gates/run-gate';

export interface EngineEvent {
  /** Global, increasing: a client that saw id N asks for events after N. */
  id: number;
  runId: string;
  at: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface RunRow {
  id: string;
  task_id: string;
  repo_id: string;
  status: RunStatus;
  reason: string | null;
  base_branch: string | null;
  base_commit: string;
  branch: string;
  worktree: string;
  plan_revision: number;
  owner_pid: number | null;
  owner_host: string | null;
  heartbeat_at: string | null;
  wake_at: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  repo_path: string;
  task_title: string;
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
  prompt: string;
  transcript_json: string;
  tree_ref: string | null;
  tree_sha: string | null;
  diff: string | null;
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
  started_at: string;
  finished_at: string | null;
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

export class Store {
  private listeners = new Set<(e: EngineEvent) => void>();
  private pending: EngineEvent[] = [];

  constructor(
    readonly db: Database.Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.runTx = db.transaction((fn: () => unknown) => fn());
  }

  private statements = new Map<string, Database.Statement>();
  // One transaction wrapper for all: building a new one per call costs more than the rows a checkpoint writes.
  private readonly runTx: (fn: () => unknown) => unknown;

  /** Prepared statements are cached: a checkpoint should cost little more than the rows it writes. */
  private stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  onEvent(fn: (e: EngineEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private iso(): string {
    return this.now().toISOString();
  }

  /** Runs fn in one transaction; events it appended are delivered only after the commit. */
  tx<T>(fn: () => T): T {
    const outer = !this.db.inTransaction;
    try {
      const value = this.runTx(fn) as T;
      if (outer) this.flush();
      return value;
    } catch (err) {
      if (outer) this.pending = [];
      throw err;
    }
  }

  private flush(): void {
    const events = this.pending;
    this.pending = [];
    for (const e of events) for (const fn of this.listeners) fn(e);
  }

  private nextEventId(): number {
    return ((this.stmt('SELECT MAX(id) AS m FROM events').get() as { m: number | null }).m ?? 0) + 1;
  }

  /** Appends to the event log (inside the caller's transaction when there is one); payloads are typed by shared/engine-events. */
  event<T extends EngineEventType>(runId: string, type: T, payload: EventPayloadIn<T>): void {
    const at = this.iso();
    const info = this.stmt('INSERT INTO events (run_id, at, type, payload_json) VALUES (?, ?, ?, ?)').run(runId, at, type, JSON.stringify(payload));
    const e: EngineEvent = { id: Number(info.lastInsertRowid), runId, at, type, payload: payload as Record<string, unknown> };
    if (this.db.inTransaction) this.pending.push(e);
    else for (const fn of this.listeners) fn(e);
  }

  upsertRepo(path: string, name: string): string {
    const existing = this.stmt('SELECT id FROM repos WHERE path = ?').get(path) as { id: string } | undefined;
    if (existing) return existing.id;
    const id = newId();
    this.stmt('INSERT INTO repos (id, path, name, created_at) VALUES (?, ?, ?, ?)').run(id, path, name, this.iso());
    return id;
  }

  /** Creates task, plan revision 1, run and its step rows in one transaction. */
  createRun(input: {
    runId: string;
    repoPath: string;
    repoName: string;
    title: string;
    description: string;
    workflow: Workflow;
    baseBranch: string | null;
    baseCommit: string;
    branch: string;
    worktree: string;
  }): void {
    this.tx(() => {
      const at = this.iso();
      const repoId = this.upsertRepo(input.repoPath, input.repoName);
      const taskId = newId();
      this.stmt('INSERT INTO tasks (id, repo_id, title, description, workflow_json, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(taskId, repoId, input.title, input.description, JSON.stringify(input.workflow), at);
      this.stmt('INSERT INTO plans (task_id, revision, steps_json, created_at) VALUES (?, 1, ?, ?)')
        .run(taskId, JSON.stringify(input.workflow.steps), at);
      this.stmt(
          `INSERT INTO runs (id, task_id, repo_id, status, reason, base_branch, base_commit, branch, worktree, plan_revision,
             owner_pid, owner_host, heartbeat_at, created_at, updated_at)
           VALUES (?, ?, ?, 'planning', NULL, ?, ?, ?, ?, 1, NULL, NULL, NULL, ?, ?)`,
        )
        .run(input.runId, taskId, repoId, input.baseBranch, input.baseCommit, input.branch, input.worktree, at, at);
      const insertStep = this.stmt("INSERT INTO step_runs (run_id, step_index, title, phase, status) VALUES (?, ?, ?, ?, 'pending')");
      input.workflow.steps.forEach((s, i) => insertStep.run(input.runId, i + 1, s.title, s.phase ?? null));
      const firstEvent = this.nextEventId();
      this.stmt('UPDATE runs SET first_event_id = ? WHERE id = ?').run(firstEvent, input.runId);
      this.event(input.runId, 'run.created', {
        repo: input.repoPath,
        branch: input.branch,
        worktree: input.worktree,
        baseCommit: input.baseCommit,
        steps: input.workflow.steps.length,
      });
    });
  }

  getRun(runId: string): RunRow | undefined {
    return this.stmt(
        `SELECT runs.*, repos.path AS repo_path, tasks.title AS task_title FROM runs
         JOIN repos ON repos.id = runs.repo_id JOIN tasks ON tasks.id = runs.task_id WHERE runs.id = ?`,
      )
      .get(runId) as RunRow | undefined;
  }

  listRuns(): RunRow[] {
    return this.stmt(
        `SELECT runs.*, repos.path AS repo_path, tasks.title AS task_title FROM runs
         JOIN repos ON repos.id = runs.repo_id JOIN tasks ON tasks.id = runs.task_id
         ORDER BY runs.created_at DESC, runs.id DESC`,
      )
      .all() as RunRow[];
  }

  getWorkflow(runId: string): Workflow {
    const row = this.stmt('SELECT tasks.workflow_json FROM runs JOIN tasks ON tasks.id = runs.task_id WHERE runs.id = ?')
      .get(runId) as { workflow_json: string } | undefined;
    if (!row) throw new Error(`run ${runId} has no task`);
    return JSON.parse(row.workflow_json) as Workflow;
  }

  getTaskDescription(runId: string): string {
    const row = this.stmt('SELECT tasks.description FROM runs JOIN tasks ON tasks.id = runs.task_id WHERE runs.id = ?')
      .get(runId) as { description: string } | undefined;
    return row?.description ?? '';
  }

  /** The plan revision the run currently follows. */
  getPlan(runId: string): { revision: number; steps: StepConfig[] } | undefined {
    const row = this.stmt(
        `SELECT plans.revision, plans.steps_json FROM runs JOIN plans ON plans.task_id = runs.task_id
         AND plans.revision = runs.plan_revision WHERE runs.id = ?`,
      )
      .get(runId) as { revision: number; steps_json: string } | undefined;
    return row ? { revision: row.revision, steps: JSON.parse(row.steps_json) as StepConfig[] } : undefined;
  }

  setRunStatus(
    runId: string,
    status: RunStatus,
    reason: string | null,
    extra: { finished?: boolean; wakeAt?: string | null } = {},
  ): void {
    this.tx(() => {
      const at = this.iso();
      this.stmt(
          `UPDATE runs SET status = ?, reason = ?, updated_at = ?, finished_at = CASE WHEN ? THEN ? ELSE finished_at END,
             wake_at = ? WHERE id = ?`,
        )
        .run(status, reason, at, extra.finished ? 1 : 0, at, extra.wakeAt ?? null, runId);
      this.event(runId, 'run.status', { status, reason, wakeAt: extra.wakeAt ?? null });
    });
  }

  /** Marks this process as the run's owner; a run `running` with no live owner is interrupted. */
  claimRun(runId: string, pid: number, host: string): void {
    const at = this.iso();
    this.stmt('UPDATE runs SET owner_pid = ?, owner_host = ?, heartbeat_at = ? WHERE id = ?').run(pid, host, at, runId);
  }

  heartbeat(runId: string): void {
    this.stmt('UPDATE runs SET heartbeat_at = ? WHERE id = ?').run(this.iso(), runId);
  }

  releaseRun(runId: string): void {
    this.stmt('UPDATE runs SET owner_pid = NULL, owner_host = NULL WHERE id = ?').run(runId);
  }

  getSteps(runId: string): StepRunRow[] {
    return this.stmt('SELECT * FROM step_runs WHERE run_id = ? ORDER BY step_index').all(runId) as StepRunRow[];
  }

  getAttempts(runId: string, stepIndex?: number): AttemptRow[] {
    if (stepIndex === undefined) {
      return this.stmt('SELECT * FROM attempts WHERE run_id = ? ORDER BY step_index, n').all(runId) as AttemptRow[];
    }
    return this.stmt('SELECT * FROM attempts WHERE run_id = ? AND step_index = ? ORDER BY n')
      .all(runId, stepIndex) as AttemptRow[];
  }

  getGateResults(attemptId: number): Array<GateResultInput & { id: number }> {
    const rows = this.stmt('SELECT * FROM gate_results WHERE attempt_id = ? ORDER BY id').all(attemptId) as Array<{
      id: number; gate: string; command: string; passed: number; exit_code: number | null; signal: string | null;
      timed_out: number; duration_ms: number; output: string; output_bytes: number; failures_json: string;
    }>;
    return rows.map((r) => ({
      id: r.id, gate: r.gate, command: r.command, passed: r.passed === 1, exitCode: r.exit_code, signal: r.signal,
      timedOut: r.timed_out === 1, durationMs: r.duration_ms, output: r.output, outputBytes: r.output_bytes,
      failures: JSON.parse(r.failures_json) as unknown[],
    }));
  }

  /** Checkpoint: an attempt begins from `preCommit`. */
  startAttempt(input: {
    runId: string;
    stepIndex: number;
    n: number;
    agentKind: string;
    model: string | null;
    prompt: string;
    preCommit: string;
  }): number {
    return this.tx(() => {
      const at = this.iso();
      this.stmt(
          `UPDATE step_runs SET status = 'running', pre_commit = COALESCE(pre_commit, ?), started_at = COALESCE(started_at, ?)
           WHERE run_id = ? AND step_index = ?`,
        )
        .run(input.preCommit, at, input.runId, input.stepIndex);
      const info = this.stmt(
          `INSERT INTO attempts (run_id, step_index, n, outcome, agent_kind, model, prompt, started_at)
           VALUES (?, ?, ?, 'running', ?, ?, ?, ?)`,
        )
        .run(input.runId, input.stepIndex, input.n, input.agentKind, input.model, input.prompt, at);
      const attemptId = Number(info.lastInsertRowid);
      this.event(input.runId, 'attempt.started', { attemptId, step: input.stepIndex, n: input.n, model: input.model, agent: input.agentKind });
      return attemptId;
    });
  }

  recordApiCall(runId: string, attemptId: number, u: UsageInput): void {
    this.tx(() => {
      this.stmt(
          `INSERT INTO api_calls (attempt_id, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(attemptId, u.model, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens, u.costUsd, this.iso());
      this.stmt(
          `UPDATE attempts SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
             cache_read_tokens = cache_read_tokens + ?, cache_write_tokens = cache_write_tokens + ?,
             cost_usd = COALESCE(cost_usd, 0) + COALESCE(?, 0), cost_known = cost_known AND ? WHERE id = ?`,
        )
        .run(u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens, u.costUsd, u.costUsd === null ? 0 : 1, attemptId);
      this.event(runId, 'api.usage', { attemptId, ...u });
    });
  }

  recordGate(runId: string, attemptId: number, g: GateResultInput): void {
    this.tx(() => {
      this.stmt(
          `INSERT INTO gate_results (attempt_id, gate, command, passed, exit_code, signal, timed_out, duration_ms, output, output_bytes, failures_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(attemptId, g.gate, g.command, g.passed ? 1 : 0, g.exitCode, g.signal, g.timedOut ? 1 : 0, g.durationMs, g.output, g.outputBytes, JSON.stringify(g.failures));
      this.event(runId, 'gate.finished', {
        attemptId, gate: g.gate, passed: g.passed, exitCode: g.exitCode, timedOut: g.timedOut, durationMs: g.durationMs, failures: g.failures.length,
      });
    });
  }

  finishAttempt(runId: string, attemptId: number, f: AttemptFinish): void {
    this.tx(() => {
      this.stmt(
          `UPDATE attempts SET outcome = ?, error_class = ?, error_message = ?, summary = ?, tree_ref = ?, tree_sha = ?, diff = ?,
             failures_json = ?, transcript_json = ?, session_id = ?, fingerprint = ?, finished_at = ? WHERE id = ?`,
        )
        .run(f.outcome, f.errorClass, f.errorMessage, f.summary, f.treeRef, f.treeSha, f.diff, JSON.stringify(f.failures),
          JSON.stringify(f.transcript), f.sessionId, f.fingerprint ?? null, this.iso(), attemptId);
      this.event(runId, 'attempt.finished', { attemptId, outcome: f.outcome, errorClass: f.errorClass, summary: f.summary });
    });
  }

  recordDecision(runId: string, attemptId: number, stepIndex: number, n: number, decision: Omit<EventPayloadIn<'decision'>, 'attemptId' | 'step' | 'n'>): void {
    this.tx(() => {
      this.stmt('UPDATE attempts SET decision_json = ? WHERE id = ?').run(JSON.stringify(decision), attemptId);
      this.event(runId, 'decision', { attemptId, step: stepIndex, n, ...decision });
    });
  }

  setAttemptOverrides(attemptId: number, overrides: Record<string, unknown>): void {
    this.stmt('UPDATE attempts SET overrides_json = ? WHERE id = ?').run(JSON.stringify(overrides), attemptId);
  }

  /** What a task has cost so far, over all its runs (null parts count as 0: unknown prices are reported elsewhere). */
  taskSpentUsd(runId: string): number {
    const row = this.stmt(
      `SELECT COALESCE(SUM(a.cost_usd), 0) AS s FROM attempts a JOIN runs r ON r.id = a.run_id
       WHERE r.task_id = (SELECT task_id FROM runs WHERE id = ?)`,
    ).get(runId) as { s: number };
    return row.s;
  }

  /** What all runs have cost since `sinceIso` (the start of the day). */
  spentSinceUsd(sinceIso: string): number {
    return (this.stmt('SELECT COALESCE(SUM(cost_usd), 0) AS s FROM api_calls WHERE at >= ?').get(sinceIso) as { s: number }).s;
  }

  hasEventSince(type: string, key: string, sinceIso: string): boolean {
    return (
      this.stmt("SELECT 1 FROM events WHERE type = ? AND at >= ? AND json_extract(payload_json, '$.key') = ? LIMIT 1").get(type, sinceIso, key) !== undefined
    );
  }

  /** Checkpoint: the step's commit exists; the step is done. */
  completeStep(runId: string, stepIndex: number, commitSha: string): void {
    this.tx(() => {
      this.stmt(`UPDATE step_runs SET status = 'succeeded', commit_sha = ?, finished_at = ? WHERE run_id = ? AND step_index = ?`)
        .run(commitSha, this.iso(), runId, stepIndex);
      this.event(runId, 'step.committed', { step: stepIndex, commit: commitSha });
    });
  }

  setStepStatus(runId: string, stepIndex: number, status: StepStatus): void {
    this.tx(() => {
      this.stmt(`UPDATE step_runs SET status = ?, finished_at = CASE WHEN ? IN ('failed','skipped') THEN ? ELSE finished_at END
                  WHERE run_id = ? AND step_index = ?`)
        .run(status, status, this.iso(), runId, stepIndex);
      this.event(runId, 'step.status', { step: stepIndex, status });
    });
  }

  /** A new plan revision for the run's task; the run follows it from now on. Steps that still match keep their commits. */
  revisePlan(runId: string, steps: readonly StepConfig[]): { revision: number; kept: number[]; reset: number[] } {
    return this.tx(() => {
      const run = this.getRun(runId);
      if (!run) throw new Error(`no run ${runId}`);
      const revision = ((this.stmt('SELECT MAX(revision) AS r FROM plans WHERE task_id = ?').get(run.task_id) as { r: number }).r ?? 0) + 1;
      this.stmt('INSERT INTO plans (task_id, revision, steps_json, created_at) VALUES (?, ?, ?, ?)').run(run.task_id, revision, JSON.stringify(steps), this.iso());
      const workflow = this.getWorkflow(runId);
      this.stmt('UPDATE tasks SET workflow_json = ? WHERE id = ?').run(JSON.stringify({ ...workflow, steps }), run.task_id);
      this.stmt('UPDATE runs SET plan_revision = ?, updated_at = ? WHERE id = ?').run(revision, this.iso(), runId);
      const old = new Map(this.getSteps(runId).map((s) => [s.step_index, s]));
      const kept: number[] = [];
      const reset: number[] = [];
      steps.forEach((step, i) => {
        const index = i + 1;
        const prev = old.get(index);
        if (prev && prev.title === step.title) {
          this.stmt('UPDATE step_runs SET phase = ? WHERE run_id = ? AND step_index = ?').run(step.phase ?? null, runId, index);
          if (prev.status === 'succeeded') kept.push(index);
          else if (prev.status !== 'pending') {
            this.stmt("UPDATE step_runs SET status = 'pending', finished_at = NULL WHERE run_id = ? AND step_index = ?").run(runId, index);
          }
        } else if (prev) {
          // A different step now: its old attempts stay as history; the row starts over.
          this.stmt("UPDATE step_runs SET title = ?, phase = ?, status = 'pending', commit_sha = NULL, pre_commit = NULL, started_at = NULL, finished_at = NULL WHERE run_id = ? AND step_index = ?")
            .run(step.title, step.phase ?? null, runId, index);
          if (prev.status === 'succeeded') reset.push(index);
        } else {
          this.stmt("INSERT INTO step_runs (run_id, step_index, title, phase, status) VALUES (?, ?, ?, ?, 'pending')").run(runId, index, step.title, step.phase ?? null);
        }
      });
      for (const [index, prev] of old) {
        if (index > steps.length) {
          this.stmt("UPDATE step_runs SET status = 'skipped' WHERE run_id = ? AND step_index = ?").run(runId, index);
          if (prev.status === 'succeeded') reset.push(index);
        }
      }
      this.event(runId, 'plan.revised', { revision, steps: steps.length, kept, reset });
      return { revision, kept, reset };
    });
  }

  /** Reconciliation: the step's commit exists on the branch, the store now agrees. */
  adoptStep(runId: string, stepIndex: number, commitSha: string): void {
    this.tx(() => {
      this.stmt("UPDATE step_runs SET status = 'succeeded', commit_sha = ?, finished_at = COALESCE(finished_at, ?) WHERE run_id = ? AND step_index = ?")
        .run(commitSha, this.iso(), runId, stepIndex);
      this.event(runId, 'step.adopted', { step: stepIndex, commit: commitSha });
    });
  }

  /** Reconciliation: the store said done but the branch has no commit: the step is not complete. */
  demoteStep(runId: string, stepIndex: number): void {
    this.tx(() => {
      this.stmt("UPDATE step_runs SET status = 'pending', commit_sha = NULL, finished_at = NULL WHERE run_id = ? AND step_index = ?").run(runId, stepIndex);
      this.event(runId, 'step.demoted', { step: stepIndex });
    });
  }

  /** Attempts left `running` by a process that died become `interrupted`. */
  closeDeadAttempts(runId: string): number {
    return this.stmt("UPDATE attempts SET outcome = 'interrupted', error_message = COALESCE(error_message, 'the process stopped during this attempt'), finished_at = COALESCE(finished_at, ?) WHERE run_id = ? AND outcome = 'running'")
      .run(this.iso(), runId).changes;
  }

  recordResume(runId: string, r: { kind: 'retry' | 'resume'; fromStep: number | null; fromStatus: string; turnBudget: number | null; auto: string; notes: string[] }): number {
    return this.tx(() => {
      const info = this.stmt('INSERT INTO resumes (run_id, kind, at, from_step, from_status, turn_budget, auto, notes_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(runId, r.kind, this.iso(), r.fromStep, r.fromStatus, r.turnBudget, r.auto, JSON.stringify(r.notes));
      this.event(runId, `run.${r.kind}`, { fromStep: r.fromStep, fromStatus: r.fromStatus, turnBudget: r.turnBudget, auto: r.auto, notes: r.notes });
      return Number(info.lastInsertRowid);
    });
  }

  getResumes(runId: string): Array<{ id: number; kind: string; at: string; from_step: number | null; from_status: string; turn_budget: number | null; auto: string; notes_json: string }> {
    return this.stmt('SELECT * FROM resumes WHERE run_id = ? ORDER BY id').all(runId) as Array<{ id: number; kind: string; at: string; from_step: number | null; from_status: string; turn_budget: number | null; auto: string; notes_json: string }>;
  }

  /** Tokens and cost of a run's API calls at or after `sinceIso` (and before `untilIso`). */
  usageBetween(runId: string, sinceIso: string, untilIso: string | null): { input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number } {
    const row = this.stmt(
      `SELECT COALESCE(SUM(c.input_tokens),0) AS i, COALESCE(SUM(c.output_tokens),0) AS o, COALESCE(SUM(c.cache_read_tokens),0) AS r,
              COALESCE(SUM(c.cache_write_tokens),0) AS w, COALESCE(SUM(c.cost_usd),0) AS c
       FROM api_calls c JOIN attempts a ON a.id = c.attempt_id WHERE a.run_id = ? AND c.at >= ? AND (? IS NULL OR c.at < ?)`,
    ).get(runId, sinceIso, untilIso, untilIso) as { i: number; o: number; r: number; w: number; c: number };
    return { input: row.i, output: row.o, cacheRead: row.r, cacheWrite: row.w, costUsd: row.c };
  }

  /** Failed attempts of one step (by index and title) over every run of the same repository and task title: seed 003's "same step failing 3+ times". */
  stepFailuresAcrossRuns(runId: string, stepIndex: number, title: string): Array<{ runId: string; n: number; errorClass: string | null; message: string | null; at: string }> {
    return this.stmt(
      `SELECT a.run_id AS runId, a.n, a.error_class AS errorClass, a.error_message AS message, a.started_at AS at
       FROM attempts a JOIN runs r ON r.id = a.run_id JOIN tasks t ON t.id = r.task_id
         JOIN step_runs s ON s.run_id = a.run_id AND s.step_index = a.step_index
       WHERE (r.repo_id, t.title) = (SELECT r2.repo_id, t2.title FROM runs r2 JOIN tasks t2 ON t2.id = r2.task_id WHERE r2.id = ?)
         AND a.step_index = ? AND s.title = ? AND a.outcome IN ('failed', 'error')
       ORDER BY a.started_at`,
    ).all(runId, stepIndex, title) as Array<{ runId: string; n: number; errorClass: string | null; message: string | null; at: string }>;
  }

  /** Runs of the same repository and task title that were interrupted (seed 003: offer resume instead of a new run). */
  interruptedLike(repoPath: string, title: string): RunRow[] {
    return this.listRuns().filter((r) => r.repo_path === repoPath && r.task_title === title && r.status === 'interrupted');
  }

  eventsSince(runId: string, afterId = 0): EngineEvent[] {
    const first = (this.stmt('SELECT first_event_id FROM runs WHERE id = ?').get(runId) as { first_event_id: number | null } | undefined)?.first_event_id ?? 0;
    const rows = this.stmt('SELECT * FROM events WHERE id > ? AND run_id = ? ORDER BY id')
      .all(Math.max(afterId, first - 1), runId) as Array<{ id: number; run_id: string; at: string; type: string; payload_json: string }>;
    return rows.map((r) => ({ id: r.id, runId: r.run_id, at: r.at, type: r.type, payload: JSON.parse(r.payload_json) as Record<string, unknown> }));
  }
}
