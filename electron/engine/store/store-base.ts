// The store's core: cached statements, BEGIN IMMEDIATE transactions that append their events, other writers' events, and the run/step/attempt rows.
import type Database from 'better-sqlite3';
import type { RunStatus, StepStatus } from '../../../shared/domain';
import type { EngineEventType, EventPayloadIn } from '../../../shared/engine-events';
import type { StepConfig, Workflow } from '../workflow/schema';
import { assertRunTransition } from '../runs/run-transitions';
import { newId, type AttemptFinish, type AttemptRow, type AttemptTexts, type EngineEvent, type GateResultInput, type RunRow, type StepRunRow, type UsageInput } from './store-rows';

export class StoreBase {
  private listeners = new Set<(e: EngineEvent) => void>();
  private pending: EngineEvent[] = [];

  constructor(
    readonly db: Database.Database,
    protected readonly now: () => Date = () => new Date(),
  ) {
    // BEGIN IMMEDIATE: the write lock is taken first, waiting out another writer (busy_timeout), instead of failing
    // with SQLITE_BUSY when a deferred transaction that has read tries to write after another process committed.
    this.runTx = db.transaction((fn: () => unknown) => fn()).immediate;
  }

  private statements = new Map<string, Database.Statement>();
  // One transaction wrapper for all: building a new one per call costs more than the rows a checkpoint writes.
  private readonly runTx: (fn: () => unknown) => unknown;
  /** Runs whose lease this store's owner lost (store.ts, renewLease): its late status writes are dropped (the new owner's stand). */
  protected lostLeases = new Set<string>();
  /** Watching other writers: what was seen of the event log, and the connection's data_version then. */
  private watch: { dataVersion: number; seenUpTo: number; own: Set<number> } | null = null;

  /** Prepared statements are cached: a checkpoint should cost little more than the rows it writes. */
  protected stmt(sql: string): Database.Statement {
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

  protected iso(): string {
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
    for (const e of events) this.deliver(e);
  }

  private deliver(e: EngineEvent): void {
    this.watch?.own.add(e.id);
    for (const fn of this.listeners) fn(e);
  }

  /** From now on, pollOtherWriters() delivers events that other connections (the CLI, another app) commit. */
  watchOtherWriters(): void {
    if (this.watch) return;
    const max = (this.stmt('SELECT MAX(id) AS m FROM events').get() as { m: number | null }).m ?? 0;
    this.watch = { dataVersion: this.db.pragma('data_version', { simple: true }) as number, seenUpTo: max, own: new Set() };
  }

  /**
   * Delivers, to this store's listeners, the events other connections committed since the last call (none when nobody
   * else wrote: PRAGMA data_version only changes for other connections' commits). Returns how many.
   */
  pollOtherWriters(): number {
    const w = this.watch;
    if (!w) return 0;
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version === w.dataVersion) {
      // Nobody else committed: every event after seenUpTo is one of ours, already delivered.
      for (const id of w.own) if (id > w.seenUpTo) w.seenUpTo = id;
      w.own.clear();
      return 0;
    }
    w.dataVersion = version;
    const rows = this.stmt('SELECT * FROM events WHERE id > ? ORDER BY id').all(w.seenUpTo) as Array<{ id: number; run_id: string; at: string; type: string; payload_json: string }>;
    const theirs = rows.filter((r) => !w.own.has(r.id));
    if (rows.length) w.seenUpTo = (rows.at(-1) as { id: number }).id;
    w.own.clear();
    for (const r of theirs) {
      const e: EngineEvent = { id: r.id, runId: r.run_id, at: r.at, type: r.type, payload: JSON.parse(r.payload_json) as Record<string, unknown> };
      for (const fn of this.listeners) fn(e);
    }
    return theirs.length;
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
    else this.deliver(e);
  }

  upsertRepo(path: string, name: string): string {
    const existing = this.stmt('SELECT id FROM repos WHERE path = ?').get(path) as { id: string } | undefined;
    if (existing) return existing.id;
    const id = newId();
    this.stmt('INSERT INTO repos (id, path, name, created_at) VALUES (?, ?, ?, ?)').run(id, path, name, this.iso());
    return id;
  }

  /** The repositories runs were made in, the most recently used first (by their newest run, else when first seen). */
  recentRepos(limit = 10): Array<{ path: string; name: string; lastUsed: string }> {
    return this.stmt(
      `SELECT repos.path, repos.name, COALESCE(MAX(runs.created_at), repos.created_at) AS lastUsed FROM repos
       LEFT JOIN runs ON runs.repo_id = repos.id GROUP BY repos.id ORDER BY lastUsed DESC LIMIT ?`,
    ).all(limit) as Array<{ path: string; name: string; lastUsed: string }>;
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
             owner_pid, owner_host, heartbeat_at, created_at, updated_at, day)
           VALUES (?, ?, ?, 'planning', NULL, ?, ?, ?, ?, 1, NULL, NULL, NULL, ?, ?, date(?, 'localtime'))`,
        )
        .run(input.runId, taskId, repoId, input.baseBranch, input.baseCommit, input.branch, input.worktree, at, at, at);
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

  /** The one way a run's status changes: only as the run's transition table allows (an illegal change throws, a bug). */
  setRunStatus(
    runId: string,
    status: RunStatus,
    reason: string | null,
    extra: { finished?: boolean; wakeAt?: string | null } = {},
  ): void {
    this.writeRunStatus(runId, status, reason, extra, true);
  }

  /**
   * Puts a run back as it was kept elsewhere (`ratchet recover` from git's record, a test's fabricated history): not a
   * change the run made, so the transition table does not apply. Nothing in the run's own life calls this.
   */
  restoreRunStatus(runId: string, status: RunStatus, reason: string | null, extra: { finished?: boolean; wakeAt?: string | null } = {}): void {
    this.writeRunStatus(runId, status, reason, extra, false);
  }

  private writeRunStatus(runId: string, status: RunStatus, reason: string | null, extra: { finished?: boolean; wakeAt?: string | null }, checked: boolean): void {
    // A process that lost the run's lease to another no longer decides its status.
    if (this.lostLeases.has(runId)) return;
    this.tx(() => {
      if (checked) {
        const current = this.stmt('SELECT status FROM runs WHERE id = ?').get(runId) as { status: RunStatus } | undefined;
        if (current) assertRunTransition(runId, current.status, status);
      }
      const at = this.iso();
      this.stmt(
          `UPDATE runs SET status = ?, reason = ?, updated_at = ?, finished_at = CASE WHEN ? THEN ? ELSE finished_at END,
             wake_at = ? WHERE id = ?`,
        )
        .run(status, reason, at, extra.finished ? 1 : 0, at, extra.wakeAt ?? null, runId);
      this.event(runId, 'run.status', { status, reason, wakeAt: extra.wakeAt ?? null });
    });
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
    const rows = this.stmt(
      'SELECT g.*, o.output FROM gate_results g LEFT JOIN gate_outputs o ON o.gate_result_id = g.id WHERE g.attempt_id = ? ORDER BY g.id',
    ).all(attemptId) as Array<{
      id: number; gate: string; command: string; passed: number; exit_code: number | null; signal: string | null;
      timed_out: number; duration_ms: number; output: string | null; output_bytes: number; failures_json: string;
    }>;
    return rows.map((r) => ({
      id: r.id, gate: r.gate, command: r.command, passed: r.passed === 1, exitCode: r.exit_code, signal: r.signal,
      timedOut: r.timed_out === 1, durationMs: r.duration_ms, output: r.output ?? '', outputBytes: r.output_bytes,
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
    /** The run's round (see `startRound`); 0 when not given. */
    round?: number;
  }): number {
    return this.tx(() => {
      const at = this.iso();
      this.stmt(
          `UPDATE step_runs SET status = 'running', pre_commit = COALESCE(pre_commit, ?), started_at = COALESCE(started_at, ?)
           WHERE run_id = ? AND step_index = ?`,
        )
        .run(input.preCommit, at, input.runId, input.stepIndex);
      const info = this.stmt(
          `INSERT INTO attempts (run_id, step_index, n, outcome, agent_kind, model, started_at, round)
           VALUES (?, ?, ?, 'running', ?, ?, ?, ?)`,
        )
        .run(input.runId, input.stepIndex, input.n, input.agentKind, input.model, at, input.round ?? 0);
      const attemptId = Number(info.lastInsertRowid);
      this.stmt('INSERT INTO attempt_prompts (attempt_id, prompt) VALUES (?, ?)').run(attemptId, input.prompt);
      this.event(input.runId, 'attempt.started', { attemptId, step: input.stepIndex, n: input.n, model: input.model, agent: input.agentKind, round: input.round ?? 0 });
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
      const info = this.stmt(
          `INSERT INTO gate_results (attempt_id, gate, command, passed, exit_code, signal, timed_out, duration_ms, output_bytes, failures_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(attemptId, g.gate, g.command, g.passed ? 1 : 0, g.exitCode, g.signal, g.timedOut ? 1 : 0, g.durationMs, g.outputBytes, JSON.stringify(g.failures));
      this.stmt('INSERT INTO gate_outputs (gate_result_id, output) VALUES (?, ?)').run(Number(info.lastInsertRowid), g.output);
      this.event(runId, 'gate.finished', {
        attemptId, gate: g.gate, passed: g.passed, exitCode: g.exitCode, timedOut: g.timedOut, durationMs: g.durationMs, failures: g.failures.length,
      });
    });
  }

  finishAttempt(runId: string, attemptId: number, f: AttemptFinish): void {
    this.tx(() => this.writeFinish(runId, attemptId, f));
  }

  private writeFinish(runId: string, attemptId: number, f: AttemptFinish): void {
    this.stmt(
        `UPDATE attempts SET outcome = ?, error_class = ?, error_message = ?, summary = ?, tree_ref = ?, tree_sha = ?,
           failures_json = ?, session_id = ?, fingerprint = ?, finished_at = ? WHERE id = ?`,
      )
      .run(f.outcome, f.errorClass, f.errorMessage, f.summary, f.treeRef, f.treeSha, JSON.stringify(f.failures),
        f.sessionId, f.fingerprint ?? null, this.iso(), attemptId);
    this.stmt(
      `INSERT INTO attempt_results (attempt_id, transcript_json, diff) VALUES (?, ?, ?)
       ON CONFLICT (attempt_id) DO UPDATE SET transcript_json = excluded.transcript_json, diff = excluded.diff`,
    ).run(attemptId, JSON.stringify(f.transcript), f.diff);
    this.event(runId, 'attempt.finished', { attemptId, outcome: f.outcome, errorClass: f.errorClass, summary: f.summary });
  }

  /**
   * The checkpoint at the end of a step, as the engine writes it: the attempt's outcome, transcript and diff and the
   * step's commit, in one transaction (with their events and the stats summary the triggers keep).
   */
  checkpointStep(runId: string, attemptId: number, stepIndex: number, f: AttemptFinish, commitSha: string): void {
    // The two writes directly, not through finishAttempt/completeStep: a nested tx would add two savepoints each.
    this.tx(() => {
      this.writeFinish(runId, attemptId, f);
      this.writeComplete(runId, stepIndex, commitSha);
    });
  }

  /** An attempt's prompt, transcript (JSON) and diff, kept apart from its row (attempt_prompts, attempt_results). */
  getAttemptTexts(attemptId: number): AttemptTexts {
    const row = this.stmt(
      `SELECT p.prompt, r.transcript_json, r.diff FROM attempts a LEFT JOIN attempt_prompts p ON p.attempt_id = a.id
       LEFT JOIN attempt_results r ON r.attempt_id = a.id WHERE a.id = ?`,
    ).get(attemptId) as { prompt: string | null; transcript_json: string | null; diff: string | null } | undefined;
    return { prompt: row?.prompt ?? '', transcript_json: row?.transcript_json ?? '[]', diff: row?.diff ?? null };
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

  /** Checkpoint: the step's commit exists; the step is done. */
  completeStep(runId: string, stepIndex: number, commitSha: string): void {
    this.tx(() => this.writeComplete(runId, stepIndex, commitSha));
  }

  private writeComplete(runId: string, stepIndex: number, commitSha: string): void {
    this.stmt(`UPDATE step_runs SET status = 'succeeded', commit_sha = ?, finished_at = ? WHERE run_id = ? AND step_index = ?`)
      .run(commitSha, this.iso(), runId, stepIndex);
    this.event(runId, 'step.committed', { step: stepIndex, commit: commitSha });
  }

  setStepStatus(runId: string, stepIndex: number, status: StepStatus): void {
    this.tx(() => {
      this.stmt(`UPDATE step_runs SET status = ?, finished_at = CASE WHEN ? IN ('failed','skipped') THEN ? ELSE finished_at END
                  WHERE run_id = ? AND step_index = ?`)
        .run(status, status, this.iso(), runId, stepIndex);
      this.event(runId, 'step.status', { step: stepIndex, status });
    });
  }

  /** `limit`: at most that many (the oldest first), for callers that page; all of them by default. Read along events_run. */
  eventsSince(runId: string, afterId = 0, limit = -1): EngineEvent[] {
    const rows = this.stmt('SELECT * FROM events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?')
      .all(runId, afterId, limit) as Array<{ id: number; run_id: string; at: string; type: string; payload_json: string }>;
    return rows.map((r) => ({ id: r.id, runId: r.run_id, at: r.at, type: r.type, payload: JSON.parse(r.payload_json) as Record<string, unknown> }));
  }
}
