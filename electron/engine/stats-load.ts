// Loads the dashboard's numbers: from the per-day summary tables (what the app, the host and `ratchet stats` call — a few
// hundred rows whatever the history), or from the raw rows (the reference the summary is checked against in tests).
import type Database from 'better-sqlite3';
import type { StatsSummary } from '../../shared/contract';
import { ERROR_CLASSES, type ErrorClass } from '../../shared/domain';
import type { ClassRecord } from './improvements';
import type { FailedTest } from './gates/parse-failures';
import type { UnfixedFailure } from './failure-patterns';
import { testIdentity } from './runs/attempt-summary';
import { countRows, fromCounts, statsWindow, type StatsCounts, type StatsInput } from './stats';

type Db = Database.Database;

/** The dashboard's summary of the last `days` local days (today included), from the summary tables. */
export function loadStats(db: Db, days: number, now: Date, dailyBudgetUsd: number | null): StatsSummary {
  return fromCounts(summaryCounts(db, days, now), days, now, dailyBudgetUsd);
}

export function summaryCounts(db: Db, days: number, now: Date): StatsCounts {
  const { sinceDay } = statsWindow(days, now);
  const runs = db.prepare('SELECT status, SUM(runs) AS n FROM stats_runs WHERE day >= ? GROUP BY status').all(sinceDay) as Array<{ status: string; n: number }>;
  const steps = db.prepare('SELECT bucket, SUM(steps) AS steps, SUM(tries) AS tries FROM stats_steps WHERE day >= ? GROUP BY bucket').all(sinceDay) as Array<{ bucket: string; steps: number; tries: number }>;
  const attempts = db.prepare(
    `SELECT error_class AS errorClass, outcome, SUM(attempts) AS attempts, SUM(retry_decisions) AS retryDecisions, SUM(unknown_cost) AS unknownCost
     FROM stats_attempts WHERE day >= ? GROUP BY error_class, outcome`,
  ).all(sinceDay) as Array<{ errorClass: string; outcome: string; attempts: number; retryDecisions: number; unknownCost: number }>;
  const costs = db.prepare('SELECT day, retry, SUM(cost_usd) AS cost FROM stats_costs WHERE day >= ? GROUP BY day, retry').all(sinceDay) as Array<{ day: string; retry: number; cost: number }>;

  const byStatus = new Map(runs.map((r) => [r.status, r.n]));
  const bucket = new Map(steps.map((s) => [s.bucket, s]));
  const n = (b: string) => bucket.get(b)?.steps ?? 0;
  const reasons = new Map<string, number>();
  for (const a of attempts) if (a.errorClass && a.retryDecisions) reasons.set(a.errorClass, (reasons.get(a.errorClass) ?? 0) + a.retryDecisions);
  const costByDay = new Map<string, { costUsd: number; retryCostUsd: number }>();
  for (const c of costs) {
    const v = costByDay.get(c.day) ?? { costUsd: 0, retryCostUsd: 0 };
    v.costUsd += c.cost;
    if (c.retry) v.retryCostUsd += c.cost;
    costByDay.set(c.day, v);
  }
  const successBuckets = ['r0', 'r1', 'r2', 'r3plus'];
  return {
    runs: runs.reduce((s, r) => s + r.n, 0),
    succeeded: byStatus.get('succeeded') ?? 0,
    failed: byStatus.get('failed') ?? 0,
    breakdown: { r0: n('r0'), r1: n('r1'), r2: n('r2'), r3plus: n('r3plus'), failedAfterMax: n('failedAfterMax') },
    successSteps: successBuckets.reduce((s, b) => s + n(b), 0),
    successAttempts: successBuckets.reduce((s, b) => s + (bucket.get(b)?.tries ?? 0), 0),
    reasons: [...reasons].map(([errorClass, count]) => ({ errorClass, count })),
    costByDay,
    flaky: attempts.filter((a) => a.outcome === 'flaky').reduce((s, a) => s + a.attempts, 0),
    unknownCost: attempts.some((a) => a.unknownCost > 0),
  };
}

/** The same summary computed from every row of the window (slow on a big store: tests compare it with loadStats). */
export function loadStatsFromRows(db: Db, days: number, now: Date, dailyBudgetUsd: number | null): StatsSummary {
  const since = statsWindow(days, now).sinceIso;
  const runs = db.prepare('SELECT id, status, created_at AS createdAt FROM runs WHERE created_at >= ?').all(since) as StatsInput['runs'];
  const steps = db.prepare('SELECT s.run_id AS runId, s.step_index AS "index", s.title, s.status FROM step_runs s JOIN runs r ON r.id = s.run_id WHERE r.created_at >= ?').all(since) as StatsInput['steps'];
  const attempts = (db
    .prepare(
      `SELECT a.run_id AS runId, a.step_index AS step, a.n, a.outcome, a.error_class AS errorClass, a.decision_json, a.cost_usd AS costUsd, a.cost_known
       FROM attempts a JOIN runs r ON r.id = a.run_id WHERE r.created_at >= ?`,
    )
    .all(since) as Array<Omit<StatsInput['attempts'][number], 'action'> & { decision_json: string | null; cost_known: number }>).map((a) => ({
    runId: a.runId, step: a.step, n: a.n, outcome: a.outcome, errorClass: a.errorClass,
    action: a.decision_json ? ((JSON.parse(a.decision_json) as { action?: string }).action ?? null) : null,
    // An attempt with no API call yet costs 0; only a model with no price makes its cost unknown.
    costUsd: a.cost_known ? (a.costUsd ?? 0) : null,
  }));
  const calls = (db.prepare(
    `SELECT c.at, c.cost_usd AS costUsd, a.outcome, (SELECT json_group_array(o.outcome) FROM attempts o WHERE o.run_id = a.run_id AND o.step_index = a.step_index AND o.n < a.n) AS earlier
     FROM api_calls c JOIN attempts a ON a.id = c.attempt_id WHERE c.at >= ?`,
  ).all(since) as Array<{ at: string; costUsd: number | null; outcome: string; earlier: string }>).map((c) => ({ ...c, earlier: JSON.parse(c.earlier) as string[] }));
  return fromCounts(countRows({ runs, steps, attempts, calls, dailyBudgetUsd }), days, now, dailyBudgetUsd);
}

/** Per error class over the last `days` local days, from the summary tables (stats_classes and stats_attempts): what the improvement suggestions read. */
export function loadClassRecords(db: Db, days: number, now: Date): ClassRecord[] {
  const { sinceDay } = statsWindow(days, now);
  const steps = db.prepare(
    `SELECT class, SUM(steps) AS steps, SUM(fixed) AS fixed, SUM(fixed_r1) AS r1, SUM(fixed_r2) AS r2, SUM(fixed_r3) AS r3, SUM(fixed_r4plus) AS r4
     FROM stats_classes WHERE day >= ? GROUP BY class`,
  ).all(sinceDay) as Array<{ class: string; steps: number; fixed: number; r1: number; r2: number; r3: number; r4: number }>;
  const attempts = db.prepare(
    `SELECT error_class AS class, SUM(retry_decisions) AS retries, SUM(CASE WHEN outcome IN ('failed', 'error') THEN attempts ELSE 0 END) AS failures
     FROM stats_attempts WHERE day >= ? AND error_class <> '' GROUP BY error_class`,
  ).all(sinceDay) as Array<{ class: string; retries: number; failures: number }>;
  const byClass = new Map(attempts.map((a) => [a.class, a]));
  return steps
    .filter((s) => s.steps > 0 && (ERROR_CLASSES as readonly string[]).includes(s.class))
    .map((s) => {
      const a = byClass.get(s.class);
      return {
        errorClass: s.class as ErrorClass, steps: s.steps, fixed: s.fixed, fixedAfter: [s.r1, s.r2, s.r3, s.r4] as [number, number, number, number],
        retries: a?.retries ?? 0, givenUp: Math.max(0, (a?.failures ?? 0) - (a?.retries ?? 0)),
      };
    })
    .sort((x, y) => x.errorClass.localeCompare(y.errorClass));
}

/**
 * The last failure of every step in the period that was never fixed (its step failed): what the failure-pattern
 * advice groups. Newest first, at most `limit` (the patterns need a few dozen, not the whole history).
 */
export function loadUnfixedFailures(db: Db, days: number, now: Date, limit = 500): UnfixedFailure[] {
  const since = statsWindow(days, now).sinceIso;
  const rows = db.prepare(
    `SELECT a.run_id AS runId, COALESCE(a.error_message, '') AS message, a.failures_json AS failures
     FROM attempts a JOIN step_runs s ON s.run_id = a.run_id AND s.step_index = a.step_index
     WHERE s.status = 'failed' AND a.outcome IN ('failed', 'error') AND a.started_at >= ?
       AND a.n = (SELECT MAX(b.n) FROM attempts b WHERE b.run_id = a.run_id AND b.step_index = a.step_index AND b.outcome IN ('failed', 'error'))
     ORDER BY a.started_at DESC LIMIT ?`,
  ).all(since, limit) as Array<{ runId: string; message: string; failures: string }>;
  return rows.map((r) => {
    let failures: FailedTest[] = [];
    try {
      failures = JSON.parse(r.failures) as FailedTest[];
    } catch {
      // A row written by an older version: its message still counts.
    }
    return {
      runId: r.runId,
      message: r.message,
      tests: failures.filter((f) => f.kind !== 'compile' && f.name).map((f) => testIdentity(f)),
      files: [...new Set(failures.map((f) => f.file?.replace(/:\d+(?::\d+)?$/, '')).filter((f): f is string => Boolean(f)))],
    };
  });
}
