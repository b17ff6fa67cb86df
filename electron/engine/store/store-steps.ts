// The store's steps and attempts: their rows, an attempt's checkpoints (start, API calls, gates, decision, finish) and a step's commit.
import type { StepStatus } from '../../../shared/domain';
import type { EventPayloadIn } from '../../../shared/engine-events';
import type { AttemptFinish, AttemptRow, AttemptTexts, GateResultInput, StepRunRow, UsageInput } from './store-rows';
import { StoreBase } from './store-base';

export class StoreSteps extends StoreBase {
  getSteps(runId: string): StepRunRow[] {
    return this.stmt('SELECT * FROM step_runs WHERE run_id = ? ORDER BY step_index').all(runId) as StepRunRow[];
  }

  getAttempts(runId: string, stepIndex?: number): AttemptRow[] {
    if (stepIndex === undefined) {
      return this.stmt('SELECT * FROM attempts WHERE run_id = ? ORDER BY step_index, n').all(runId) as AttemptRow[];
    }
    return this.stmt('SELECT * FROM attempts WHERE run_id = ? AND step_index = ? ORDER BY n').all(runId, stepIndex) as AttemptRow[];
  }

  getGateResults(attemptId: number): Array<GateResultInput & { id: number }> {
    const rows = this.stmt(
      'SELECT g.*, o.output FROM gate_results g LEFT JOIN gate_outputs o ON o.gate_result_id = g.id WHERE g.attempt_id = ? ORDER BY g.id',
    ).all(attemptId) as Array<{
      id: number;
      gate: string;
      command: string;
      passed: number;
      exit_code: number | null;
      signal: string | null;
      timed_out: number;
      duration_ms: number;
      output: string | null;
      output_bytes: number;
      failures_json: string;
    }>;
    return rows.map((r) => ({
      id: r.id,
      gate: r.gate,
      command: r.command,
      passed: r.passed === 1,
      exitCode: r.exit_code,
      signal: r.signal,
      timedOut: r.timed_out === 1,
      durationMs: r.duration_ms,
      output: r.output ?? '',
      outputBytes: r.output_bytes,
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
      ).run(input.preCommit, at, input.runId, input.stepIndex);
      const info = this.stmt(
        `INSERT INTO attempts (run_id, step_index, n, outcome, agent_kind, model, started_at, round)
           VALUES (?, ?, ?, 'running', ?, ?, ?, ?)`,
      ).run(input.runId, input.stepIndex, input.n, input.agentKind, input.model, at, input.round ?? 0);
      const attemptId = Number(info.lastInsertRowid);
      this.stmt('INSERT INTO attempt_prompts (attempt_id, prompt) VALUES (?, ?)').run(attemptId, input.prompt);
      this.event(input.runId, 'attempt.started', {
        attemptId,
        step: input.stepIndex,
        n: input.n,
        model: input.model,
        agent: input.agentKind,
        round: input.round ?? 0,
      });
      return attemptId;
    });
  }

  recordApiCall(runId: string, attemptId: number, u: UsageInput): void {
    this.tx(() => {
      this.stmt(
        `INSERT INTO api_calls (attempt_id, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(attemptId, u.model, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens, u.costUsd, this.iso());
      this.stmt(
        `UPDATE attempts SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
             cache_read_tokens = cache_read_tokens + ?, cache_write_tokens = cache_write_tokens + ?,
             cost_usd = COALESCE(cost_usd, 0) + COALESCE(?, 0), cost_known = cost_known AND ? WHERE id = ?`,
      ).run(u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens, u.costUsd, u.costUsd === null ? 0 : 1, attemptId);
      this.event(runId, 'api.usage', { attemptId, ...u });
    });
  }

  recordGate(runId: string, attemptId: number, g: GateResultInput): void {
    this.tx(() => {
      const info = this.stmt(
        `INSERT INTO gate_results (attempt_id, gate, command, passed, exit_code, signal, timed_out, duration_ms, output_bytes, failures_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(attemptId, g.gate, g.command, g.passed ? 1 : 0, g.exitCode, g.signal, g.timedOut ? 1 : 0, g.durationMs, g.outputBytes, JSON.stringify(g.failures));
      this.stmt('INSERT INTO gate_outputs (gate_result_id, output) VALUES (?, ?)').run(Number(info.lastInsertRowid), g.output);
      this.event(runId, 'gate.finished', {
        attemptId,
        gate: g.gate,
        passed: g.passed,
        exitCode: g.exitCode,
        timedOut: g.timedOut,
        durationMs: g.durationMs,
        failures: g.failures.length,
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
    ).run(
      f.outcome,
      f.errorClass,
      f.errorMessage,
      f.summary,
      f.treeRef,
      f.treeSha,
      JSON.stringify(f.failures),
      f.sessionId,
      f.fingerprint ?? null,
      this.iso(),
      attemptId,
    );
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
    this.stmt(`UPDATE step_runs SET status = 'succeeded', commit_sha = ?, finished_at = ? WHERE run_id = ? AND step_index = ?`).run(
      commitSha,
      this.iso(),
      runId,
      stepIndex,
    );
    this.event(runId, 'step.committed', { step: stepIndex, commit: commitSha });
  }

  setStepStatus(runId: string, stepIndex: number, status: StepStatus): void {
    this.tx(() => {
      this.stmt(
        `UPDATE step_runs SET status = ?, finished_at = CASE WHEN ? IN ('failed','skipped') THEN ? ELSE finished_at END
                  WHERE run_id = ? AND step_index = ?`,
      ).run(status, status, this.iso(), runId, stepIndex);
      this.event(runId, 'step.status', { step: stepIndex, status });
    });
  }
}
