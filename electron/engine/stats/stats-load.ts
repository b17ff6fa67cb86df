// Loads the dashboard's numbers: from the per-day summary tables (what the app, the host and `ratchet stats` call — a few
// hundred rows whatever the history), or from the raw rows (the reference the summary is checked against in tests).
import type { StatsSummary } from '../../../shared/contract';
import { ERROR_CLASSES, type ErrorClass } from '../../../shared/domain';
import type { ClassRecord } from './improvements';
import type { FailedTest } from '../gates/parse-failures';
import type { UnfixedFailure } from './failure-patterns';
import { testIdentity } from '../failures/attempt-summary';
import { countRows, fromCounts, reviewRoundStats, statsWindow, type StatsCounts } from './stats';
import type { StoreDb as Db } from '../store/store-rows';
import { classRows, rawStatsRows, reviewRoundRows, summaryRows, unfixedFailureRows } from '../store/stats-queries';

/** The dashboard's summary of the last `days` local days (today included), from the summary tables. */
export function loadStats(db: Db, days: number, now: Date, dailyBudgetUsd: number | null): StatsSummary {
  return fromCounts(summaryCounts(db, days, now), days, now, dailyBudgetUsd);
}

export function summaryCounts(db: Db, days: number, now: Date): StatsCounts {
  const { sinceDay, sinceIso } = statsWindow(days, now);
  const { runs, steps, attempts, costs } = summaryRows(db, sinceDay);

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
    // Review rounds are few (one per "Send to agent"): read from their own table, not summarised per day.
    reviewRounds: reviewRoundStats(reviewRoundRows(db, sinceIso)),
  };
}

/** The same summary computed from every row of the window (slow on a big store: tests compare it with loadStats). */
export function loadStatsFromRows(db: Db, days: number, now: Date, dailyBudgetUsd: number | null): StatsSummary {
  const since = statsWindow(days, now).sinceIso;
  const rows = rawStatsRows(db, since);
  const { runs, steps } = rows;
  const attempts = rows.attempts.map((a) => ({
    runId: a.runId,
    step: a.step,
    n: a.n,
    outcome: a.outcome,
    errorClass: a.errorClass,
    action: a.decision_json ? ((JSON.parse(a.decision_json) as { action?: string }).action ?? null) : null,
    // An attempt with no API call yet costs 0; only a model with no price makes its cost unknown.
    costUsd: a.cost_known ? (a.costUsd ?? 0) : null,
  }));
  const calls = rows.calls.map((c) => ({ at: c.at, costUsd: c.costUsd, outcome: c.outcome, earlier: c.earlier }));
  return fromCounts(
    { ...countRows({ runs, steps, attempts, calls, dailyBudgetUsd }), reviewRounds: reviewRoundStats(reviewRoundRows(db, since)) },
    days,
    now,
    dailyBudgetUsd,
  );
}

/** Per error class over the last `days` local days, from the summary tables (stats_classes and stats_attempts): what the improvement suggestions read. */
export function loadClassRecords(db: Db, days: number, now: Date): ClassRecord[] {
  const { sinceDay } = statsWindow(days, now);
  const { steps, attempts } = classRows(db, sinceDay);
  const byClass = new Map(attempts.map((a) => [a.class, a]));
  return steps
    .filter((s) => s.steps > 0 && (ERROR_CLASSES as readonly string[]).includes(s.class))
    .map((s) => {
      const a = byClass.get(s.class);
      return {
        errorClass: s.class as ErrorClass,
        steps: s.steps,
        fixed: s.fixed,
        fixedAfter: [s.r1, s.r2, s.r3, s.r4] as [number, number, number, number],
        retries: a?.retries ?? 0,
        givenUp: Math.max(0, (a?.failures ?? 0) - (a?.retries ?? 0)),
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
  const rows = unfixedFailureRows(db, since, limit);
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
