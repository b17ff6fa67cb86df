// The dashboard's numbers, computed from runs, steps and attempts: success rate, retry breakdown and reasons, cost per day, suggestions, and the weekly report.
import type { StatsSummary } from '../../shared/contract';
import type { Store } from './store/store';

export interface StatsInput {
  runs: Array<{ id: string; status: string; createdAt: string }>;
  steps: Array<{ runId: string; index: number; title: string; status: string }>;
  attempts: Array<{ runId: string; step: number; n: number; outcome: string; errorClass: string | null; action: string | null; costUsd: number | null }>;
  calls: Array<{ at: string; costUsd: number | null; retry: boolean }>;
  dailyBudgetUsd: number | null;
}

const localDay = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Pure: the summary of the last `days` days (inputs already limited to that window). */
export function summarise(input: StatsInput, days: number, now: Date): StatsSummary {
  const finished = input.runs.filter((r) => r.status === 'succeeded' || r.status === 'failed');
  const succeeded = input.runs.filter((r) => r.status === 'succeeded').length;
  const failed = input.runs.filter((r) => r.status === 'failed').length;
  const attemptsByStep = new Map<string, typeof input.attempts>();
  for (const a of input.attempts) {
    const key = `${a.runId}#${a.step}`;
    attemptsByStep.set(key, [...(attemptsByStep.get(key) ?? []), a]);
  }
  const breakdown = { r0: 0, r1: 0, r2: 0, r3plus: 0, failedAfterMax: 0 };
  let successAttempts = 0;
  let successSteps = 0;
  for (const s of input.steps) {
    const tries = (attemptsByStep.get(`${s.runId}#${s.index}`) ?? []).filter((a) => a.outcome !== 'interrupted' && a.outcome !== 'running').length;
    if (s.status === 'succeeded' && tries > 0) {
      successSteps++;
      successAttempts += tries;
      const retries = tries - 1;
      if (retries === 0) breakdown.r0++;
      else if (retries === 1) breakdown.r1++;
      else if (retries === 2) breakdown.r2++;
      else breakdown.r3plus++;
    } else if (s.status === 'failed') breakdown.failedAfterMax++;
  }
  const reasons = new Map<string, number>();
  for (const a of input.attempts) if (a.action === 'retry' && a.errorClass) reasons.set(a.errorClass, (reasons.get(a.errorClass) ?? 0) + 1);
  const retryReasons = [...reasons].map(([errorClass, count]) => ({ errorClass, count })).sort((a, b) => b.count - a.count);

  const perDay = new Map<string, { costUsd: number; retryCostUsd: number }>();
  for (let i = days - 1; i >= 0; i--) perDay.set(localDay(new Date(now.getTime() - i * 86_400_000).toISOString()), { costUsd: 0, retryCostUsd: 0 });
  let total = 0;
  let retryTotal = 0;
  for (const c of input.calls) {
    const day = perDay.get(localDay(c.at));
    const cost = c.costUsd ?? 0;
    total += cost;
    if (c.retry) retryTotal += cost;
    if (day) {
      day.costUsd += cost;
      if (c.retry) day.retryCostUsd += cost;
    }
  }
  const avg = successSteps ? successAttempts / successSteps : null;
  const suggestions: string[] = [];
  const top = retryReasons[0];
  const totalRetries = retryReasons.reduce((n, r) => n + r.count, 0);
  if (top && totalRetries >= 3 && top.count / totalRetries >= 0.5) {
    const advice: Record<string, string> = {
      compilation_error: 'add a build or typecheck gate before the tests, and say in the step prompt which files compile together',
      test_failure: 'give steps the expected values and the test names they must satisfy',
      timeout: 'raise the gate timeouts or split slow suites',
      crash: 'give crashing gates a `restart` command',
      api_error: 'check the API status page; lower concurrency',
      rate_limit: 'spread runs over time or raise your rate limits',
    };
    suggestions.push(`${Math.round((top.count / totalRetries) * 100)}% of retries were ${top.errorClass}${advice[top.errorClass] ? `: ${advice[top.errorClass]}` : ''}.`);
  }
  if (breakdown.failedAfterMax > 0) suggestions.push(`${breakdown.failedAfterMax} step(s) failed after every retry: revise those plans before retrying, or raise their limits if they came close.`);
  const flaky = input.attempts.filter((a) => a.outcome === 'flaky').length;
  if (flaky) suggestions.push(`${flaky} attempt(s) passed only on a re-run (flaky tests): fix them so they stop costing retries.`);
  if (avg !== null && avg <= 1.5 && successSteps >= 5) suggestions.push(`Average ${avg.toFixed(1)} attempts per step: a good first-try rate; keep the current step format.`);
  if (input.attempts.some((a) => a.costUsd === null)) suggestions.push('Some attempts used a model with no price in the pricing table: add it in Settings so costs are complete.');
  return {
    days,
    runs: input.runs.length,
    succeeded,
    failed,
    successRate: finished.length ? round(succeeded / finished.length, 4) : null,
    avgAttemptsPerSuccess: avg === null ? null : round(avg, 2),
    retryBreakdown: breakdown,
    retryReasons,
    costPerDay: [...perDay].map(([day, v]) => ({ day, costUsd: round(v.costUsd, 6), retryCostUsd: round(v.retryCostUsd, 6) })),
    dailyBudgetUsd: input.dailyBudgetUsd,
    totalCostUsd: round(total, 6),
    retryCostUsd: round(retryTotal, 6),
    savedByRetries: breakdown.r1 + breakdown.r2 + breakdown.r3plus,
    suggestions,
  };
}

/** Loads the window's rows from the store. */
export function loadStats(store: Store, days: number, now: Date, dailyBudgetUsd: number | null): StatsSummary {
  const since = new Date(now.getTime() - days * 86_400_000).toISOString();
  const db = store.db;
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
    costUsd: a.cost_known ? a.costUsd : null,
  }));
  const calls = (db.prepare('SELECT c.at, c.cost_usd AS costUsd, a.n FROM api_calls c JOIN attempts a ON a.id = c.attempt_id WHERE c.at >= ?').all(since) as Array<{ at: string; costUsd: number | null; n: number }>).map((c) => ({ at: c.at, costUsd: c.costUsd, retry: c.n > 1 }));
  return summarise({ runs, steps, attempts, calls, dailyBudgetUsd }, days, now);
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);

/** The weekly report (seed 002's "Retry Statistics"), as Markdown. */
export function reportMarkdown(s: StatsSummary, now: Date): string {
  const b = s.retryBreakdown;
  const steps = b.r0 + b.r1 + b.r2 + b.r3plus + b.failedAfterMax;
  const share = (n: number) => (steps ? ` (${((n / steps) * 100).toFixed(1)}%)` : '');
  const reasonsTotal = s.retryReasons.reduce((n, r) => n + r.count, 0);
  return [
    `# Retry statistics — last ${s.days} days`,
    '',
    `_Generated ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC by Ratchet._`,
    '',
    `- **Success rate:** ${pct(s.successRate)} (${s.succeeded}/${s.succeeded + s.failed} finished runs; ${s.runs} runs started)`,
    `- **Average attempts:** ${s.avgAttemptsPerSuccess ?? 'n/a'} per successful step`,
    `- **Cost:** $${s.totalCostUsd.toFixed(2)}, of which retries $${s.retryCostUsd.toFixed(2)}; retries rescued ${s.savedByRetries} step(s)`,
    '',
    '## Retry breakdown (steps)',
    '',
    '| retries | steps |',
    '| --- | --- |',
    `| none needed | ${b.r0}${share(b.r0)} |`,
    `| 1 retry | ${b.r1}${share(b.r1)} |`,
    `| 2 retries | ${b.r2}${share(b.r2)} |`,
    `| 3 or more | ${b.r3plus}${share(b.r3plus)} |`,
    `| failed after max | ${b.failedAfterMax}${share(b.failedAfterMax)} |`,
    '',
    '## Common retry reasons',
    '',
    ...(s.retryReasons.length ? s.retryReasons.map((r, i) => `${i + 1}. ${r.errorClass}: ${r.count} (${((r.count / reasonsTotal) * 100).toFixed(0)}%)`) : ['No retries.']),
    '',
    '## Cost per day',
    '',
    '| day | cost | of which retries |',
    '| --- | --- | --- |',
    ...s.costPerDay.map((d) => `| ${d.day} | $${d.costUsd.toFixed(4)} | $${d.retryCostUsd.toFixed(4)} |`),
    ...(s.dailyBudgetUsd !== null ? ['', `Daily budget: $${s.dailyBudgetUsd.toFixed(2)}.`] : []),
    '',
    '## Suggestions',
    '',
    ...(s.suggestions.length ? s.suggestions.map((x) => `- ${x}`) : ['- Nothing stands out.']),
    '',
  ].join('\n');
}
