// The estimate's reads and its one write: a repository's and workflow's last finished runs, the store's last finished
// runs, their attempts (narrow columns), and the estimate a run started with. Every read is bounded by an index and a
// LIMIT (store/query-plans.test.ts): an estimate costs the same with a year of history as with a week.
import type { AttemptOutcome, ErrorClass } from '../../../shared/domain';
import type { StoreDb } from './store-rows';

/** What a run counts as once it has ended: the statuses whose attempts say what such a run costs. */
const FINISHED = "('succeeded', 'failed')";

/** The last `limit` finished runs of this repository and workflow (index runs_repo_workflow), newest first. */
export function similarRunIds(db: StoreDb, repoPath: string, workflowKey: string, limit: number): string[] {
  const rows = db
    .prepare(
      `SELECT runs.id FROM runs WHERE runs.repo_id = (SELECT id FROM repos WHERE path = ?) AND runs.workflow_key = ? AND runs.status IN ${FINISHED}
       ORDER BY runs.created_at DESC LIMIT ?`,
    )
    .all(repoPath, workflowKey, limit) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

/** The store's last `limit` finished runs, any repository, newest first (the runs list's index, stopped by the LIMIT). */
export function recentRunIds(db: StoreDb, limit: number): string[] {
  const rows = db.prepare(`SELECT id FROM runs WHERE status IN ${FINISHED} ORDER BY created_at DESC, id DESC LIMIT ?`).all(limit) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

export interface EstimateAttemptRow {
  runId: string;
  step: number;
  outcome: AttemptOutcome;
  errorClass: ErrorClass | null;
  costUsd: number | null;
  costKnown: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  startedAt: string;
  finishedAt: string | null;
}

/** The attempts of the given runs, each run's in order (the attempts' (run, step, n) index). */
export function attemptsOfRuns(db: StoreDb, runIds: readonly string[]): EstimateAttemptRow[] {
  if (!runIds.length) return [];
  return db
    .prepare(
      `SELECT a.run_id AS runId, a.step_index AS step, a.outcome, a.error_class AS errorClass, a.cost_usd AS costUsd, a.cost_known AS costKnown,
            a.input_tokens AS inputTokens, a.output_tokens AS outputTokens, a.cache_read_tokens AS cacheReadTokens,
            a.cache_write_tokens AS cacheWriteTokens, a.started_at AS startedAt, a.finished_at AS finishedAt
       FROM json_each(?) ids JOIN attempts a ON a.run_id = ids.value ORDER BY a.run_id, a.step_index, a.n`,
    )
    .all(JSON.stringify(runIds)) as EstimateAttemptRow[];
}

/** Records the estimate a run starts with (JSON of shared/domain.ts RunEstimate). */
export function setRunEstimate(db: StoreDb, runId: string, estimateJson: string): void {
  db.prepare('UPDATE runs SET estimate_json = ? WHERE id = ?').run(estimateJson, runId);
}

/** The last `limit` finished runs that started with an estimate: the estimate and what the run cost (null: a price unknown). */
export function estimatedRuns(db: StoreDb, limit: number): Array<{ estimateJson: string; costUsd: number | null }> {
  return db
    .prepare(
      `SELECT runs.estimate_json AS estimateJson,
            (SELECT CASE WHEN MIN(a.cost_known) = 0 THEN NULL ELSE COALESCE(SUM(a.cost_usd), 0) END FROM attempts a WHERE a.run_id = runs.id) AS costUsd
       FROM runs INDEXED BY runs_estimated WHERE runs.estimate_json IS NOT NULL AND runs.status IN ${FINISHED}
       ORDER BY runs.created_at DESC, runs.id DESC LIMIT ?`,
    )
    .all(limit) as Array<{ estimateJson: string; costUsd: number | null }>;
}
