// Typed queries over the SQLite store: the core (store-core.ts), runs (store-base.ts), steps and attempts (store-steps.ts), plus run leases, budgets, plan revisions, reconciliation and resumes.
import { runNotFound } from '../errors';
import type { StepConfig } from '../workflow/schema';
import { leaseState, type LeaseOwner, type LeaseState } from './run-lease';
import type { RunStatus } from '../../../shared/domain';
import { pausedBetweenSteps } from '../../../shared/run-steering';
import type { RestoredAttempt } from '../git/run-refs';
import { RUN_COLUMNS, type RunRow, type RunSummaryRow } from './store-rows';
import { StoreSteps } from './store-steps';

export * from './store-rows';

/** A runs-list row's columns: the run, its repository and title, its step counts and cost (no texts). */
const SUMMARY_COLUMNS = `${RUN_COLUMNS},
  (SELECT count(*) FROM step_runs s WHERE s.run_id = runs.id AND s.status = 'succeeded') AS steps_done,
  (SELECT count(*) FROM step_runs s WHERE s.run_id = runs.id AND s.status <> 'skipped') AS steps_total,
  (SELECT CASE WHEN min(a.cost_known) = 0 THEN NULL ELSE round(COALESCE(sum(a.cost_usd), 0), 6) END FROM attempts a WHERE a.run_id = runs.id) AS cost_usd`;

export class Store extends StoreSteps {
  private leaseUntil(ms: number): string {
    return new Date(this.now().getTime() + ms).toISOString();
  }

  /**
   * Takes the run's lease for `owner`, atomically (one IMMEDIATE transaction reads and writes the row): it succeeds
   * when the lease is free, already ours, or left by a dead (same host, pid gone) or late (expired) owner; otherwise it
   * answers the holder's state and changes nothing.
   */
  acquireLease(
    runId: string,
    owner: LeaseOwner,
    leaseMs: number,
    alive: (pid: number) => boolean,
  ): { ok: true; took: LeaseState } | { ok: false; holder: LeaseState } {
    return this.tx(() => {
      const row = this.stmt('SELECT owner_pid, owner_host, owner_token, lease_until FROM runs WHERE id = ?').get(runId) as
        { owner_pid: number | null; owner_host: string | null; owner_token: string | null; lease_until: string | null } | undefined;
      if (!row) throw runNotFound(runId);
      const state = leaseState(row, owner, this.now().getTime(), alive);
      if (state.kind === 'held') return { ok: false as const, holder: state };
      this.stmt('UPDATE runs SET owner_pid = ?, owner_host = ?, owner_token = ?, lease_until = ?, heartbeat_at = ? WHERE id = ?').run(
        owner.pid,
        owner.host,
        owner.token,
        this.leaseUntil(leaseMs),
        this.iso(),
        runId,
      );
      this.lostLeases.delete(runId);
      if (state.kind === 'dead' || state.kind === 'expired') {
        const why = state.kind === 'dead' ? 'its process is gone' : `its lease ran out${state.until ? ` at ${state.until}` : ''}`;
        this.event(runId, 'log', {
          level: 'info',
          message: `Process ${owner.pid} on ${owner.host} took over this run from process ${state.pid} on ${state.host} (${why}).`,
        });
      }
      return { ok: true as const, took: state };
    });
  }

  /** The heartbeat: extends the lease if `token` still holds it. False means another process took the run over. */
  renewLease(runId: string, token: string, leaseMs: number): boolean {
    const renewed =
      this.stmt('UPDATE runs SET heartbeat_at = ?, lease_until = ? WHERE id = ? AND owner_token = ?').run(this.iso(), this.leaseUntil(leaseMs), runId, token)
        .changes === 1;
    if (!renewed) this.lostLeases.add(runId);
    return renewed;
  }

  /** Gives the lease back (only if `token` still holds it). */
  releaseLease(runId: string, token: string): void {
    this.stmt('UPDATE runs SET owner_pid = NULL, owner_host = NULL, owner_token = NULL, lease_until = NULL WHERE id = ? AND owner_token = ?').run(runId, token);
  }

  /** Records pid and host as the owner with no lease (no token, no expiry), as Ratchet did before leases; tests stand for a process that died with it. */
  claimRun(runId: string, pid: number, host: string): void {
    this.stmt('UPDATE runs SET owner_pid = ?, owner_host = ?, owner_token = NULL, lease_until = NULL, heartbeat_at = ? WHERE id = ?').run(
      pid,
      host,
      this.iso(),
      runId,
    );
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
    // Budget alerts (the only events asked about, twice per attempt) have their own partial index: events_budget_alert.
    const sql =
      type === 'budget.alert'
        ? "SELECT 1 FROM events WHERE type = 'budget.alert' AND json_extract(payload_json, '$.key') = ? AND at >= ? LIMIT 1"
        : "SELECT 1 FROM events WHERE type = ? AND json_extract(payload_json, '$.key') = ? AND at >= ? LIMIT 1";
    const args = type === 'budget.alert' ? [key, sinceIso] : [type, key, sinceIso];
    return this.stmt(sql).get(...args) !== undefined;
  }

  /** A new plan revision for the run's task; the run follows it from now on. Steps that still match keep their commits. */
  revisePlan(runId: string, steps: readonly StepConfig[]): { revision: number; kept: number[]; reset: number[] } {
    return this.tx(() => {
      const run = this.getRun(runId);
      if (!run) throw new Error(`no run ${runId}`);
      const revision = ((this.stmt('SELECT MAX(revision) AS r FROM plans WHERE task_id = ?').get(run.task_id) as { r: number }).r ?? 0) + 1;
      this.stmt('INSERT INTO plans (task_id, revision, steps_json, created_at) VALUES (?, ?, ?, ?)').run(
        run.task_id,
        revision,
        JSON.stringify(steps),
        this.iso(),
      );
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
          this.stmt(
            "UPDATE step_runs SET title = ?, phase = ?, status = 'pending', commit_sha = NULL, pre_commit = NULL, started_at = NULL, finished_at = NULL WHERE run_id = ? AND step_index = ?",
          ).run(step.title, step.phase ?? null, runId, index);
          if (prev.status === 'succeeded') reset.push(index);
        } else {
          this.stmt("INSERT INTO step_runs (run_id, step_index, title, phase, status) VALUES (?, ?, ?, ?, 'pending')").run(
            runId,
            index,
            step.title,
            step.phase ?? null,
          );
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
  /** `ratchet recover`: an attempt as the run's state ref kept it, with its own times, so the history and stats read as before. */
  restoreAttempt(runId: string, a: RestoredAttempt): void {
    this.tx(() => {
      const info = this.stmt(
        `INSERT INTO attempts (run_id, step_index, n, round, outcome, error_class, error_message, summary, agent_kind, model,
           tree_ref, tree_sha, failures_json, decision_json, started_at, finished_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        runId,
        a.step,
        a.n,
        a.round,
        a.outcome,
        a.errorClass,
        a.errorMessage,
        a.summary,
        a.agentKind,
        a.model,
        a.treeRef,
        a.treeSha,
        JSON.stringify(a.failures ?? []),
        a.decision === null || a.decision === undefined ? null : JSON.stringify(a.decision),
        a.startedAt,
        a.finishedAt,
      );
      const id = Number(info.lastInsertRowid);
      if (a.costUsd !== null || a.inputTokens || a.outputTokens) {
        this.stmt(
          `INSERT INTO api_calls (attempt_id, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(id, a.model ?? '', a.inputTokens, a.outputTokens, a.cacheReadTokens, a.cacheWriteTokens, a.costUsd, a.finishedAt ?? a.startedAt);
        this.stmt(
          `UPDATE attempts SET input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_write_tokens = ?, cost_usd = ?, cost_known = ? WHERE id = ?`,
        ).run(a.inputTokens, a.outputTokens, a.cacheReadTokens, a.cacheWriteTokens, a.costUsd, a.costUsd === null ? 0 : 1, id);
      }
    });
  }

  adoptStep(runId: string, stepIndex: number, commitSha: string): void {
    this.tx(() => {
      this.stmt("UPDATE step_runs SET status = 'succeeded', commit_sha = ?, finished_at = COALESCE(finished_at, ?) WHERE run_id = ? AND step_index = ?").run(
        commitSha,
        this.iso(),
        runId,
        stepIndex,
      );
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

  /**
   * Attempts left `running` by a process that died become `interrupted`, ended at the run's last sign of life (its last
   * event or lease heartbeat, not the moment it was noticed), each with an attempt.finished event saying when.
   */
  closeDeadAttempts(runId: string): number {
    return this.tx(() => {
      const open = this.stmt("SELECT id, started_at FROM attempts WHERE run_id = ? AND outcome = 'running'").all(runId) as Array<{
        id: number;
        started_at: string;
      }>;
      if (open.length === 0) return 0;
      const lastEvent = (this.stmt('SELECT at FROM events WHERE run_id = ? ORDER BY id DESC LIMIT 1').get(runId) as { at: string } | undefined)?.at ?? '';
      // The lease's heartbeat says the process was alive then, even when nothing happened (a long API call).
      const heartbeat = (this.stmt('SELECT heartbeat_at FROM runs WHERE id = ?').get(runId) as { heartbeat_at: string | null } | undefined)?.heartbeat_at ?? '';
      const last = lastEvent > heartbeat ? lastEvent : heartbeat;
      for (const a of open) {
        const endedAt = last && last > a.started_at ? last : a.started_at;
        this.stmt(
          "UPDATE attempts SET outcome = 'interrupted', error_message = COALESCE(error_message, 'the process stopped during this attempt'), finished_at = COALESCE(finished_at, ?) WHERE id = ?",
        ).run(endedAt, a.id);
        this.event(runId, 'attempt.finished', { attemptId: a.id, outcome: 'interrupted', errorClass: null, summary: null, finishedAt: endedAt });
      }
      return open.length;
    });
  }

  recordResume(
    runId: string,
    r: { kind: 'retry' | 'resume'; fromStep: number | null; fromStatus: string; turnBudget: number | null; auto: string; notes: string[] },
  ): number {
    return this.tx(() => {
      const info = this.stmt(
        'INSERT INTO resumes (run_id, kind, at, from_step, from_status, turn_budget, auto, notes_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(runId, r.kind, this.iso(), r.fromStep, r.fromStatus, r.turnBudget, r.auto, JSON.stringify(r.notes));
      this.event(runId, `run.${r.kind}`, { fromStep: r.fromStep, fromStatus: r.fromStatus, turnBudget: r.turnBudget, auto: r.auto, notes: r.notes });
      return Number(info.lastInsertRowid);
    });
  }

  /** Raises the run's task budget (kept with the run; the policy uses it over the workflow's `budget.task_usd`). */
  raiseTaskBudget(runId: string, usd: number): void {
    this.tx(() => {
      const before =
        (this.stmt('SELECT task_budget_usd FROM runs WHERE id = ?').get(runId) as { task_budget_usd: number | null } | undefined)?.task_budget_usd ?? null;
      this.stmt('UPDATE runs SET task_budget_usd = ? WHERE id = ?').run(usd, runId);
      this.event(runId, 'budget.raised', { taskUsd: usd, before });
    });
  }

  /** A retry or resume starts a new round: the step's retry accounting starts afresh, the attempts stay as history. */
  startRound(runId: string): number {
    return this.tx(() => {
      this.stmt('UPDATE runs SET round = round + 1 WHERE id = ?').run(runId);
      return (this.stmt('SELECT round FROM runs WHERE id = ?').get(runId) as { round: number }).round;
    });
  }

  /** After the run's branch was rebased onto a moved base: the new base commit and the step's new starting commit. */
  setRebased(runId: string, baseCommit: string, stepIndex: number, preCommit: string): void {
    this.tx(() => {
      this.stmt('UPDATE runs SET base_commit = ? WHERE id = ?').run(baseCommit, runId);
      this.stmt('UPDATE step_runs SET pre_commit = ? WHERE run_id = ? AND step_index = ?').run(preCommit, runId, stepIndex);
    });
  }

  getResumes(runId: string): Array<{
    id: number;
    kind: string;
    at: string;
    from_step: number | null;
    from_status: string;
    turn_budget: number | null;
    auto: string;
    notes_json: string;
  }> {
    return this.stmt('SELECT * FROM resumes WHERE run_id = ? ORDER BY id').all(runId) as Array<{
      id: number;
      kind: string;
      at: string;
      from_step: number | null;
      from_status: string;
      turn_budget: number | null;
      auto: string;
      notes_json: string;
    }>;
  }

  /** Tokens and cost of a run's API calls at or after `sinceIso` (and before `untilIso`). */
  usageBetween(
    runId: string,
    sinceIso: string,
    untilIso: string | null,
  ): { input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number } {
    const row = this.stmt(
      `SELECT COALESCE(SUM(c.input_tokens),0) AS i, COALESCE(SUM(c.output_tokens),0) AS o, COALESCE(SUM(c.cache_read_tokens),0) AS r,
              COALESCE(SUM(c.cache_write_tokens),0) AS w, COALESCE(SUM(c.cost_usd),0) AS c
       FROM api_calls c JOIN attempts a ON a.id = c.attempt_id WHERE a.run_id = ? AND c.at >= ? AND (? IS NULL OR c.at < ?)`,
    ).get(runId, sinceIso, untilIso, untilIso) as { i: number; o: number; r: number; w: number; c: number };
    return { input: row.i, output: row.o, cacheRead: row.r, cacheWrite: row.w, costUsd: row.c };
  }

  /** Failed attempts of one step (by index and title) over every run of the same repository and task title: the resume plan's "same step failing 3+ times". */
  stepFailuresAcrossRuns(
    runId: string,
    stepIndex: number,
    title: string,
  ): Array<{ runId: string; n: number; errorClass: string | null; message: string | null; at: string }> {
    return this.stmt(
      `SELECT a.run_id AS runId, a.n, a.error_class AS errorClass, a.error_message AS message, a.started_at AS at
       FROM attempts a JOIN runs r ON r.id = a.run_id JOIN tasks t ON t.id = r.task_id
         JOIN step_runs s ON s.run_id = a.run_id AND s.step_index = a.step_index
       WHERE (r.repo_id, t.title) = (SELECT r2.repo_id, t2.title FROM runs r2 JOIN tasks t2 ON t2.id = r2.task_id WHERE r2.id = ?)
         AND a.step_index = ? AND s.title = ? AND a.outcome IN ('failed', 'error')
       ORDER BY a.started_at`,
    ).all(runId, stepIndex, title) as Array<{ runId: string; n: number; errorClass: string | null; message: string | null; at: string }>;
  }

  /**
   * The repository's runs a start-up offers to resume instead of a new run: interrupted, or paused between steps; newest
   * first, those of the same task title first (the likeliest to resume).
   */
  interruptedLike(repoPath: string, title: string): RunRow[] {
    const mine = this.awaitingResume().filter((r) => r.repo_path === repoPath);
    return [...mine.filter((r) => r.task_title === title), ...mine.filter((r) => r.task_title !== title)];
  }

  /** Runs that wait for a resume with nothing wrong: interrupted, or paused between steps; newest first. */
  awaitingResume(): RunRow[] {
    return this.runsWithStatus(['interrupted', 'paused']).filter((r) => r.status === 'interrupted' || pausedBetweenSteps(r.status, r.reason_code));
  }

  /** Runs in the given statuses, newest first: read through the runs_status index (few runs are active at once). */
  runsWithStatus(statuses: readonly RunStatus[]): RunRow[] {
    const rows = statuses.flatMap(
      (st) =>
        this.stmt(
          `SELECT ${RUN_COLUMNS} FROM runs INDEXED BY runs_status
         JOIN repos ON repos.id = runs.repo_id JOIN tasks ON tasks.id = runs.task_id WHERE runs.status = ?`,
        ).all(st) as RunRow[],
    );
    return rows.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
  }

  /**
   * One page of the runs list, newest first, with each run's step counts and cost: one query, narrow rows (no texts),
   * read along the runs_list index, so a page costs the same with 10 runs or 100,000.
   */
  listRunSummaries(page: { limit: number; before?: { createdAt: string; id: string }; ids?: readonly string[] }): RunSummaryRow[] {
    const b = page.before;
    if (page.ids) return page.ids.length ? this.summariesOf(page.ids) : [];
    return this.stmt(
      `SELECT ${SUMMARY_COLUMNS}
       FROM runs JOIN repos ON repos.id = runs.repo_id JOIN tasks ON tasks.id = runs.task_id
       WHERE (? IS NULL OR runs.created_at < ? OR (runs.created_at = ? AND runs.id < ?))
       ORDER BY runs.created_at DESC, runs.id DESC LIMIT ?`,
    ).all(b?.createdAt ?? null, b?.createdAt ?? null, b?.createdAt ?? null, b?.id ?? null, page.limit) as RunSummaryRow[];
  }

  private summariesOf(ids: readonly string[]): RunSummaryRow[] {
    return ids.flatMap(
      (id) =>
        (this.stmt(`SELECT ${SUMMARY_COLUMNS} FROM runs JOIN repos ON repos.id = runs.repo_id JOIN tasks ON tasks.id = runs.task_id WHERE runs.id = ?`).get(
          id,
        ) as RunSummaryRow | undefined) ?? [],
    );
  }
}
