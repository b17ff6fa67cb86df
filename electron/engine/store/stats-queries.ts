// The dashboard's and the what-if replay's reads: the per-day summary tables (a few hundred rows whatever the history),
// the raw rows they are checked against, and a period's runs with their steps and attempts. Rows only; stats-load.ts,
// stats-report.ts and what-if-history.ts shape them.
import type { AttemptOutcome, ErrorClass, RunReasonCode, RunStatus } from '../../../shared/domain';
import type { StoreDb } from './store-rows';

/** The summary tables' sums since a local day (`YYYY-MM-DD`): runs by status, steps by retry bucket, attempts, costs. */
export function summaryRows(db: StoreDb, sinceDay: string) {
  return {
    runs: db.prepare('SELECT status, SUM(runs) AS n FROM stats_runs WHERE day >= ? GROUP BY status').all(sinceDay) as Array<{ status: string; n: number }>,
    steps: db.prepare('SELECT bucket, SUM(steps) AS steps, SUM(tries) AS tries FROM stats_steps WHERE day >= ? GROUP BY bucket').all(sinceDay) as Array<{
      bucket: string;
      steps: number;
      tries: number;
    }>,
    attempts: db
      .prepare(
        `SELECT error_class AS errorClass, outcome, SUM(attempts) AS attempts, SUM(retry_decisions) AS retryDecisions, SUM(unknown_cost) AS unknownCost
       FROM stats_attempts WHERE day >= ? GROUP BY error_class, outcome`,
      )
      .all(sinceDay) as Array<{ errorClass: string; outcome: string; attempts: number; retryDecisions: number; unknownCost: number }>,
    costs: db.prepare('SELECT day, retry, SUM(cost_usd) AS cost FROM stats_costs WHERE day >= ? GROUP BY day, retry').all(sinceDay) as Array<{
      day: string;
      retry: number;
      cost: number;
    }>,
  };
}

/** Every run, step, attempt and API call of the window since `sinceIso`, narrow columns (the reference the summary tables are checked against). */
export function rawStatsRows(db: StoreDb, sinceIso: string) {
  return {
    runs: db.prepare('SELECT id, status, created_at AS createdAt FROM runs WHERE created_at >= ?').all(sinceIso) as Array<{
      id: string;
      status: string;
      createdAt: string;
    }>,
    steps: db
      .prepare('SELECT s.run_id AS runId, s.step_index AS "index", s.title, s.status FROM step_runs s JOIN runs r ON r.id = s.run_id WHERE r.created_at >= ?')
      .all(sinceIso) as Array<{ runId: string; index: number; title: string; status: string }>,
    attempts: db
      .prepare(
        `SELECT a.run_id AS runId, a.step_index AS step, a.n, a.outcome, a.error_class AS errorClass, a.decision_json, a.cost_usd AS costUsd, a.cost_known
       FROM attempts a JOIN runs r ON r.id = a.run_id WHERE r.created_at >= ?`,
      )
      .all(sinceIso) as Array<{
      runId: string;
      step: number;
      n: number;
      outcome: string;
      errorClass: string | null;
      decision_json: string | null;
      costUsd: number | null;
      cost_known: number;
    }>,
    // Each call with its attempt's outcome and the outcomes of its step's earlier attempts: whether it is retry cost.
    calls: (
      db
        .prepare(
          `SELECT c.at, c.cost_usd AS costUsd, a.outcome, (SELECT json_group_array(o.outcome) FROM attempts o WHERE o.run_id = a.run_id AND o.step_index = a.step_index AND o.n < a.n) AS earlier
       FROM api_calls c JOIN attempts a ON a.id = c.attempt_id WHERE c.at >= ?`,
        )
        .all(sinceIso) as Array<{ at: string; costUsd: number | null; outcome: string; earlier: string }>
    ).map((c) => ({ ...c, earlier: JSON.parse(c.earlier) as string[] })),
  };
}

/** Per error class since a local day (stats_classes and stats_attempts): steps, fixes by retry, retries and failures. */
export function classRows(db: StoreDb, sinceDay: string) {
  return {
    steps: db
      .prepare(
        `SELECT class, SUM(steps) AS steps, SUM(fixed) AS fixed, SUM(fixed_r1) AS r1, SUM(fixed_r2) AS r2, SUM(fixed_r3) AS r3, SUM(fixed_r4plus) AS r4
       FROM stats_classes WHERE day >= ? GROUP BY class`,
      )
      .all(sinceDay) as Array<{ class: string; steps: number; fixed: number; r1: number; r2: number; r3: number; r4: number }>,
    attempts: db
      .prepare(
        `SELECT error_class AS class, SUM(retry_decisions) AS retries, SUM(CASE WHEN outcome IN ('failed', 'error') THEN attempts ELSE 0 END) AS failures
       FROM stats_attempts WHERE day >= ? AND error_class <> '' GROUP BY error_class`,
      )
      .all(sinceDay) as Array<{ class: string; retries: number; failures: number }>,
  };
}

/** The last failed attempt of every failed step started since `sinceIso`, newest first, at most `limit`. */
export function unfixedFailureRows(db: StoreDb, sinceIso: string, limit: number): Array<{ runId: string; message: string; failures: string }> {
  return db
    .prepare(
      `SELECT a.run_id AS runId, COALESCE(a.error_message, '') AS message, a.failures_json AS failures
     FROM attempts a JOIN step_runs s ON s.run_id = a.run_id AND s.step_index = a.step_index
     WHERE s.status = 'failed' AND a.outcome IN ('failed', 'error') AND a.started_at >= ?
       AND a.n = (SELECT MAX(b.n) FROM attempts b WHERE b.run_id = a.run_id AND b.step_index = a.step_index AND b.outcome IN ('failed', 'error'))
     ORDER BY a.started_at DESC LIMIT ?`,
    )
    .all(sinceIso, limit) as Array<{ runId: string; message: string; failures: string }>;
}

export interface WhatIfRow {
  run_id: string;
  title: string;
  status: RunStatus;
  reason: string | null;
  reason_code: RunReasonCode | null;
  step_index: number | null;
  step_title: string | null;
  step_status: string | null;
  n: number | null;
  outcome: AttemptOutcome | null;
  error_class: ErrorClass | null;
  cost_usd: number | null;
}

const WHAT_IF_SQL = `SELECT runs.id AS run_id, tasks.title, runs.status, runs.reason, runs.reason_code,
            s.step_index, s.title AS step_title, s.status AS step_status,
            a.n, a.outcome, a.error_class, a.cost_usd
     FROM runs JOIN tasks ON tasks.id = runs.task_id
     LEFT JOIN step_runs s ON s.run_id = runs.id AND s.status <> 'skipped'
     LEFT JOIN attempts a ON a.run_id = runs.id AND a.step_index = s.step_index
     WHERE runs.created_at >= ?
     ORDER BY runs.created_at, runs.id, s.step_index, a.id`;

/** Runs created since `sinceIso`, each row one attempt (or a step with none, or a run with no step), in order (one query). */
export function whatIfRows(db: StoreDb, sinceIso: string): WhatIfRow[] {
  return db.prepare(WHAT_IF_SQL).all(sinceIso) as WhatIfRow[];
}

/** The same rows, read one at a time as they are consumed (a long period is never held whole). */
export function whatIfRowsIterate(db: StoreDb, sinceIso: string): IterableIterator<WhatIfRow> {
  return db.prepare(WHAT_IF_SQL).iterate(sinceIso) as IterableIterator<WhatIfRow>;
}

/** The review rounds started since `sinceIso` (each with its step's API cost), how many comments they sent, and the latest declined comments. */
export function reviewRoundRows(db: StoreDb, sinceIso: string, declinedLimit = 20) {
  // A store read before its migration to schema 18 (the stats tests' old stores) has no review tables: no rounds.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'review_rounds'").get()) return { rounds: [], declined: [], declinedCount: 0 };
  return {
    rounds: db
      .prepare(
        `SELECT rr.status,
                (SELECT COALESCE(SUM(c.cost_usd), 0) FROM api_calls c JOIN attempts a ON a.id = c.attempt_id
                  WHERE a.run_id = rr.run_id AND a.step_index = rr.step_index) AS cost,
                (SELECT COUNT(*) FROM review_comments rc WHERE rc.round_id = rr.id) AS comments
           FROM review_rounds rr WHERE rr.created_at >= ?`,
      )
      .all(sinceIso) as Array<{ status: 'running' | 'answered' | 'failed'; cost: number; comments: number }>,
    declined: db
      .prepare(
        `SELECT rc.run_id AS runId, rc.file, rc.line, rc.body, rc.answer FROM review_comments rc JOIN review_rounds rr ON rr.id = rc.round_id
          WHERE rr.created_at >= ? AND rc.verdict = 'declined' ORDER BY rr.created_at DESC, rc.id LIMIT ?`,
      )
      .all(sinceIso, declinedLimit) as Array<{ runId: string; file: string; line: number; body: string; answer: string | null }>,
    declinedCount: (
      db
        .prepare(
          `SELECT COUNT(*) AS n FROM review_comments rc JOIN review_rounds rr ON rr.id = rc.round_id WHERE rr.created_at >= ? AND rc.verdict = 'declined'`,
        )
        .get(sinceIso) as { n: number }
    ).n,
  };
}
