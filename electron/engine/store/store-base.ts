// The store's runs: repositories, a run's creation with its task and first plan, its rows, and its one status write.
import type { RunReasonCode, RunStatus } from '../../../shared/domain';
import type { StepConfig, Workflow } from '../workflow/schema';
import { assertRunTransition } from './run-transitions';
import { newId, RUN_COLUMNS, type RunRow } from './store-rows';
import { StoreCore } from './store-core';

/** What a status write carries besides the status and its reason text. */
export interface StatusExtra {
  finished?: boolean;
  wakeAt?: string | null;
  code?: RunReasonCode | null;
}

export class StoreBase extends StoreCore {
  /** Runs whose lease this store's owner lost (store.ts, renewLease): its late status writes are dropped (the new owner's stand). */
  protected lostLeases = new Set<string>();

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
      // Each repository's newest run from the runs_repo index (one step per repository, not a read of its every run).
      `SELECT repos.path, repos.name, COALESCE((SELECT MAX(runs.created_at) FROM runs WHERE runs.repo_id = repos.id), repos.created_at) AS lastUsed
       FROM repos ORDER BY lastUsed DESC LIMIT ?`,
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
    /** The workflow it follows (estimate/workflow-key.ts): what its estimate finds runs like it by. */
    workflowKey?: string | null;
  }): void {
    this.tx(() => {
      const at = this.iso();
      const repoId = this.upsertRepo(input.repoPath, input.repoName);
      const taskId = newId();
      this.stmt('INSERT INTO tasks (id, repo_id, title, description, workflow_json, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
        taskId,
        repoId,
        input.title,
        input.description,
        JSON.stringify(input.workflow),
        at,
      );
      this.stmt('INSERT INTO plans (task_id, revision, steps_json, created_at) VALUES (?, 1, ?, ?)').run(taskId, JSON.stringify(input.workflow.steps), at);
      this.stmt(
        `INSERT INTO runs (id, task_id, repo_id, status, reason, base_branch, base_commit, branch, worktree, plan_revision,
             owner_pid, owner_host, heartbeat_at, created_at, updated_at, day)
           VALUES (?, ?, ?, 'planning', NULL, ?, ?, ?, ?, 1, NULL, NULL, NULL, ?, ?, date(?, 'localtime'))`,
      ).run(input.runId, taskId, repoId, input.baseBranch, input.baseCommit, input.branch, input.worktree, at, at, at);
      // Its own statement, so the tests that write rows as an older schema did (no such column) still can.
      if (input.workflowKey) this.stmt('UPDATE runs SET workflow_key = ? WHERE id = ?').run(input.workflowKey, input.runId);
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
      `SELECT ${RUN_COLUMNS} FROM runs
         JOIN repos ON repos.id = runs.repo_id JOIN tasks ON tasks.id = runs.task_id WHERE runs.id = ?`,
    ).get(runId) as RunRow | undefined;
  }

  listRuns(): RunRow[] {
    return this.stmt(
      `SELECT ${RUN_COLUMNS} FROM runs
         JOIN repos ON repos.id = runs.repo_id JOIN tasks ON tasks.id = runs.task_id
         ORDER BY runs.created_at DESC, runs.id DESC`,
    ).all() as RunRow[];
  }

  /** Every run's worktree and whether it finished (narrow: what the private folders' sweep decides by). */
  runWorktrees(): Array<{ worktree: string; finished_at: string | null }> {
    return this.stmt('SELECT worktree, finished_at FROM runs').all() as Array<{ worktree: string; finished_at: string | null }>;
  }

  getWorkflow(runId: string): Workflow {
    const row = this.stmt('SELECT tasks.workflow_json FROM runs JOIN tasks ON tasks.id = runs.task_id WHERE runs.id = ?').get(runId) as
      { workflow_json: string } | undefined;
    if (!row) throw new Error(`run ${runId} has no task`);
    return JSON.parse(row.workflow_json) as Workflow;
  }

  getTaskDescription(runId: string): string {
    const row = this.stmt('SELECT tasks.description FROM runs JOIN tasks ON tasks.id = runs.task_id WHERE runs.id = ?').get(runId) as
      { description: string } | undefined;
    return row?.description ?? '';
  }

  /** The plan revision the run currently follows. */
  getPlan(runId: string): { revision: number; steps: StepConfig[] } | undefined {
    const row = this.stmt(
      `SELECT plans.revision, plans.steps_json FROM runs JOIN plans ON plans.task_id = runs.task_id
         AND plans.revision = runs.plan_revision WHERE runs.id = ?`,
    ).get(runId) as { revision: number; steps_json: string } | undefined;
    return row ? { revision: row.revision, steps: JSON.parse(row.steps_json) as StepConfig[] } : undefined;
  }

  /**
   * The one way a run's status changes: only as the run's transition table allows (an illegal change throws, a bug).
   * `extra.code`: the reason as a code (the run machine's); none given is null, as a status without a special reason.
   */
  setRunStatus(runId: string, status: RunStatus, reason: string | null, extra: StatusExtra = {}): void {
    this.writeRunStatus(runId, status, reason, extra, true);
  }

  /**
   * Puts a run back as it was kept elsewhere (`ratchet recover` from git's record, a test's fabricated history): not a
   * change the run made, so the transition table does not apply. Nothing in the run's own life calls this.
   */
  restoreRunStatus(runId: string, status: RunStatus, reason: string | null, extra: StatusExtra = {}): void {
    this.writeRunStatus(runId, status, reason, extra, false);
  }

  private writeRunStatus(runId: string, status: RunStatus, reason: string | null, extra: StatusExtra, checked: boolean): void {
    // A process that lost the run's lease to another no longer decides its status.
    if (this.lostLeases.has(runId)) return;
    this.tx(() => {
      if (checked) {
        const current = this.stmt('SELECT status FROM runs WHERE id = ?').get(runId) as { status: RunStatus } | undefined;
        if (current) assertRunTransition(runId, current.status, status);
      }
      const at = this.iso();
      this.stmt(
        `UPDATE runs SET status = ?, reason = ?, reason_code = ?, updated_at = ?, finished_at = CASE WHEN ? THEN ? ELSE finished_at END,
             wake_at = ? WHERE id = ?`,
      ).run(status, reason, extra.code ?? null, at, extra.finished ? 1 : 0, at, extra.wakeAt ?? null, runId);
      this.event(runId, 'run.status', { status, reason, reasonCode: extra.code ?? null, wakeAt: extra.wakeAt ?? null });
    });
  }
}
