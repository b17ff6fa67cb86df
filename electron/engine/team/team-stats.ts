// The team's numbers for the dashboard and `ratchet stats --team`: what the team's runs did in the last N days, from the
// status documents their workers keep in the team database (each attempt's outcome, error class and cost). Pure.
import type { ErrorClass, StatusDocument } from '../../../shared/domain';
import type { TeamStatsDoc } from '../../../shared/contract/team';

/** The period's numbers: the contract's TeamStatsDoc (shared/contract/team.ts) but today's spend, which the client adds. */
export type TeamStats = Omit<TeamStatsDoc, 'spentTodayUsd' | 'dailyBudgetUsd'>;

export function teamStats(
  rows: ReadonlyArray<{ status: string; worker: string | null; createdAt: string; costUsd: number | null; doc: StatusDocument | null }>,
  days: number,
  now: Date,
): TeamStats {
  const since = now.getTime() - days * 86_400_000;
  const within = rows.filter((r) => Date.parse(r.createdAt) >= since);
  const s: TeamStats = {
    days,
    runs: within.length,
    succeeded: within.filter((r) => r.status === 'succeeded').length,
    failed: within.filter((r) => r.status === 'failed').length,
    open: within.filter((r) => !['succeeded', 'failed', 'cancelled'].includes(r.status)).length,
    attempts: 0,
    retries: 0,
    retriesThatPassed: 0,
    retryCostUsd: 0,
    costUsd: 0,
    reasons: [],
    byWorker: [],
  };
  const reasons = new Map<ErrorClass, number>();
  const workers = new Map<string, { worker: string; runs: number; succeeded: number; costUsd: number }>();
  for (const r of within) {
    s.costUsd += r.costUsd ?? 0;
    const w = workers.get(r.worker ?? '(none)') ?? { worker: r.worker ?? '(none)', runs: 0, succeeded: 0, costUsd: 0 };
    w.runs += 1;
    w.succeeded += r.status === 'succeeded' ? 1 : 0;
    w.costUsd += r.costUsd ?? 0;
    workers.set(w.worker, w);
    for (const step of r.doc?.steps ?? []) {
      step.attempts.forEach((a, i) => {
        s.attempts += 1;
        if (a.errorClass) reasons.set(a.errorClass, (reasons.get(a.errorClass) ?? 0) + 1);
        if (i === 0) return;
        s.retries += 1;
        s.retryCostUsd += a.costUsd ?? 0;
        if (a.outcome === 'passed' || a.outcome === 'flaky') s.retriesThatPassed += 1;
      });
    }
  }
  s.reasons = [...reasons].map(([errorClass, attempts]) => ({ errorClass, attempts })).sort((a, b) => b.attempts - a.attempts);
  s.byWorker = [...workers.values()].sort((a, b) => b.runs - a.runs);
  return s;
}
