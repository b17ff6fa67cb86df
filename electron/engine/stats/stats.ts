// The dashboard's numbers from counts (of rows, or of the store's per-day summary): success rate, retry breakdown and reasons, cost per day, suggestions, and the weekly report.
import type { ReviewRoundStats, StatsSummary } from '../../../shared/contract';
import { improvementText, type Improvement } from './improvements';
import { errorClassLabel, plural } from '../../../shared/error-classes';
import { money } from '../../../shared/money';

export interface StatsInput {
  runs: Array<{ id: string; status: string; createdAt: string }>;
  steps: Array<{ runId: string; index: number; title: string; status: string }>;
  attempts: Array<{ runId: string; step: number; n: number; outcome: string; errorClass: string | null; action: string | null; costUsd: number | null }>;
  /** Every API call: when, its cost, its attempt's outcome and the outcomes of its step's attempts before that one. */
  calls: Array<{ at: string; costUsd: number | null; outcome: string; earlier: string[] }>;
  dailyBudgetUsd: number | null;
}

/**
 * Whether an attempt with this outcome is one of its step's tries. Not one: an attempt still running, one cut by a stop
 * or a crash (the attempt after it carries on), and a test-first step's `red` attempt (its test failing as it should:
 * a phase of the step, not a try). The store's summary triggers say the same in SQL (migration 16's `counted`).
 */
export const isTry = (outcome: string): boolean => outcome !== 'running' && outcome !== 'interrupted' && outcome !== 'red';

/** Whether an attempt is a retry (its API cost is retry cost): it comes after one of its step's tries, and is no `red` attempt. */
export const isRetry = (outcome: string, earlier: readonly string[]): boolean => outcome !== 'red' && earlier.some(isTry);

export const localDay = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The window of the last `days` local calendar days, today included: its first day, and that day's local midnight. */
export function statsWindow(days: number, now: Date): { sinceDay: string; sinceIso: string } {
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
  return { sinceDay: localDay(first.toISOString()), sinceIso: first.toISOString() };
}

/** The window's local calendar days, oldest first (its first one is statsWindow's sinceDay). */
export function windowDays(days: number, now: Date): string[] {
  return Array.from({ length: days }, (_, i) => localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1 - i)).toISOString()));
}

/** What the dashboard is computed from: counts, whether they come from rows (summarise) or the summary tables (stats-load). */
export interface StatsCounts {
  runs: number;
  succeeded: number;
  failed: number;
  breakdown: StatsSummary['retryBreakdown'];
  /** Tries of the steps that succeeded after at least one, and how many such steps. */
  successAttempts: number;
  successSteps: number;
  reasons: Array<{ errorClass: string; count: number }>;
  /** Cost of the API calls per local day (days outside the window are left out of the chart, not of the totals). */
  costByDay: Map<string, { costUsd: number; retryCostUsd: number }>;
  flaky: number;
  unknownCost: boolean;
  /** Review rounds in the window (stats-load.ts reads them; absent where none are kept). */
  reviewRounds?: ReviewRoundStats;
}

/** Pure: review rounds counted like retries, from their rows (stats-queries.ts, reviewRoundRows). */
export function reviewRoundStats(rows: {
  rounds: ReadonlyArray<{ status: string; cost: number; comments: number }>;
  declined: ReviewRoundStats['declined'];
  declinedCount: number;
}): ReviewRoundStats {
  return {
    rounds: rows.rounds.length,
    failed: rows.rounds.filter((r) => r.status === 'failed').length,
    costUsd: round(
      rows.rounds.reduce((s, r) => s + r.cost, 0),
      6,
    ),
    comments: rows.rounds.reduce((s, r) => s + r.comments, 0),
    declinedCount: rows.declinedCount,
    declined: [...rows.declined],
  };
}

/** Pure: counts from the window's rows. */
export function countRows(input: StatsInput): StatsCounts {
  const succeeded = input.runs.filter((r) => r.status === 'succeeded').length;
  const failed = input.runs.filter((r) => r.status === 'failed').length;
  const tries = new Map<string, number>();
  for (const a of input.attempts) {
    if (!isTry(a.outcome)) continue;
    const key = `${a.runId}#${a.step}`;
    tries.set(key, (tries.get(key) ?? 0) + 1);
  }
  const breakdown = { r0: 0, r1: 0, r2: 0, r3plus: 0, failedAfterMax: 0 };
  let successAttempts = 0;
  let successSteps = 0;
  for (const s of input.steps) {
    const n = tries.get(`${s.runId}#${s.index}`) ?? 0;
    if (s.status === 'succeeded' && n > 0) {
      successSteps++;
      successAttempts += n;
      const retries = n - 1;
      if (retries === 0) breakdown.r0++;
      else if (retries === 1) breakdown.r1++;
      else if (retries === 2) breakdown.r2++;
      else breakdown.r3plus++;
    } else if (s.status === 'failed') breakdown.failedAfterMax++;
  }
  const reasons = new Map<string, number>();
  for (const a of input.attempts) if (a.action === 'retry' && a.errorClass) reasons.set(a.errorClass, (reasons.get(a.errorClass) ?? 0) + 1);
  const costByDay = new Map<string, { costUsd: number; retryCostUsd: number }>();
  for (const c of input.calls) {
    const day = localDay(c.at);
    const v = costByDay.get(day) ?? { costUsd: 0, retryCostUsd: 0 };
    v.costUsd += c.costUsd ?? 0;
    if (isRetry(c.outcome, c.earlier)) v.retryCostUsd += c.costUsd ?? 0;
    costByDay.set(day, v);
  }
  return {
    runs: input.runs.length,
    succeeded,
    failed,
    breakdown,
    successAttempts,
    successSteps,
    reasons: [...reasons].map(([errorClass, count]) => ({ errorClass, count })),
    costByDay,
    flaky: input.attempts.filter((a) => a.outcome === 'flaky').length,
    unknownCost: input.attempts.some((a) => a.costUsd === null),
  };
}

/** Pure: the summary of the last `days` days (inputs already limited to that window). */
export function summarise(input: StatsInput, days: number, now: Date): StatsSummary {
  return fromCounts(countRows(input), days, now, input.dailyBudgetUsd);
}

/** Pure: the dashboard's summary from the window's counts. */
export function fromCounts(c: StatsCounts, days: number, now: Date, dailyBudgetUsd: number | null): StatsSummary {
  const breakdown = c.breakdown;
  const retryReasons = c.reasons.filter((r) => r.count > 0).sort((a, b) => b.count - a.count || a.errorClass.localeCompare(b.errorClass));
  const perDay = new Map<string, { costUsd: number; retryCostUsd: number }>();
  // Calendar days, as statsWindow counts them (subtracting 24 h steps skips a day around a daylight-saving change).
  for (const day of windowDays(days, now)) perDay.set(day, { costUsd: 0, retryCostUsd: 0 });
  let total = 0;
  let retryTotal = 0;
  for (const [d, v] of [...c.costByDay].sort(([a], [b]) => a.localeCompare(b))) {
    total += v.costUsd;
    retryTotal += v.retryCostUsd;
    const day = perDay.get(d);
    if (day) {
      day.costUsd += v.costUsd;
      day.retryCostUsd += v.retryCostUsd;
    }
  }
  const avg = c.successSteps ? c.successAttempts / c.successSteps : null;
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
    suggestions.push(
      `${errorClassLabel(top.errorClass)} caused ${Math.round((top.count / totalRetries) * 100)} % of retries${advice[top.errorClass] ? `: ${advice[top.errorClass]}` : ''}.`,
    );
  }
  if (breakdown.failedAfterMax > 0)
    suggestions.push(
      `${plural(breakdown.failedAfterMax, 'step')} failed after every retry: revise those plans before retrying, or raise their limits if they came close.`,
    );
  if (c.flaky) suggestions.push(`${plural(c.flaky, 'attempt')} passed only on a re-run (flaky tests): fix them so they stop costing retries.`);
  if (avg !== null && avg <= 1.5 && c.successSteps >= 5)
    suggestions.push(`Average ${avg.toFixed(1)} attempts per step: a good first-try rate; keep the current step format.`);
  if (c.unknownCost) suggestions.push('Some attempts used a model with no price in the pricing table: add it in Settings so costs are complete.');
  const finished = c.succeeded + c.failed;
  return {
    days,
    runs: c.runs,
    succeeded: c.succeeded,
    failed: c.failed,
    successRate: finished ? round(c.succeeded / finished, 4) : null,
    avgAttemptsPerSuccess: avg === null ? null : round(avg, 2),
    retryBreakdown: breakdown,
    retryReasons,
    costPerDay: [...perDay].map(([day, v]) => ({ day, costUsd: round(v.costUsd, 6), retryCostUsd: round(v.retryCostUsd, 6) })),
    dailyBudgetUsd,
    totalCostUsd: round(total, 6),
    retryCostUsd: round(retryTotal, 6),
    savedByRetries: breakdown.r1 + breakdown.r2 + breakdown.r3plus,
    ...(c.reviewRounds ? { reviewRounds: c.reviewRounds } : {}),
    suggestions,
  };
}

/** Every suggestion for a period, once: the improvement suggestions first, then the summary's own. The report, `ratchet stats --json` and the app's summary list exactly these. */
export function allSuggestions(s: Pick<StatsSummary, 'suggestions'>, improvements: readonly Improvement[]): string[] {
  return [...new Set([...improvements.map(improvementText), ...s.suggestions])];
}

/** The report's review rounds, under the retry breakdown: a round is one more try of the run, asked for by a reviewer. */
function reviewLines(r: ReviewRoundStats | undefined): string[] {
  if (!r || r.rounds === 0) return [];
  return [
    `**Review rounds:** ${plural(r.rounds, 'round')} (${r.failed} failed) for ${plural(r.comments, 'comment')}, costing ${money(r.costUsd)}; ${plural(r.declinedCount, 'comment')} declined`,
    ...r.declined.slice(0, 5).map((d) => `- declined ${d.file}:${d.line} "${d.body}"${d.answer ? `: ${d.answer}` : ''}`),
    '',
  ];
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);

/**
 * The weekly report ("Retry Statistics"), as Markdown. Its suggestions are the improvement suggestions
 * (when given), then the summary's own, so it lists everything `ratchet stats --json` and the dashboard do.
 */
export function reportMarkdown(s: StatsSummary, now: Date, improvements?: readonly Improvement[]): string {
  const suggestions = allSuggestions(s, improvements ?? []);
  const b = s.retryBreakdown;
  const steps = b.r0 + b.r1 + b.r2 + b.r3plus + b.failedAfterMax;
  const share = (n: number) => (steps ? ` (${((n / steps) * 100).toFixed(1)} %)` : '');
  const reasonsTotal = s.retryReasons.reduce((n, r) => n + r.count, 0);
  return [
    `# Retry statistics — last ${s.days} days`,
    '',
    `_Generated ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC by Ratchet._`,
    '',
    `- **Success rate:** ${pct(s.successRate)} (${s.succeeded} of ${plural(s.succeeded + s.failed, 'finished run')}; ${plural(s.runs, 'run')} started)`,
    `- **Average attempts:** ${s.avgAttemptsPerSuccess ?? 'n/a'} per successful step`,
    `- **Cost:** ${money(s.totalCostUsd)}, of which retries ${money(s.retryCostUsd)}; retries rescued ${plural(s.savedByRetries, 'step')}`,
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
    ...reviewLines(s.reviewRounds),
    '## Common retry reasons',
    '',
    ...(s.retryReasons.length
      ? s.retryReasons.map(
          (r, i) => `${i + 1}. ${errorClassLabel(r.errorClass)}: ${plural(r.count, 'retry', 'retries')} (${((r.count / reasonsTotal) * 100).toFixed(0)} %)`,
        )
      : ['No retries.']),
    '',
    '## Cost per day',
    '',
    '| day | cost | of which retries |',
    '| --- | --- | --- |',
    ...s.costPerDay.map((d) => `| ${d.day} | ${money(d.costUsd)} | ${money(d.retryCostUsd)} |`),
    ...(s.dailyBudgetUsd !== null ? ['', `Daily budget: ${money(s.dailyBudgetUsd)}.`] : []),
    '',
    '## Improvement suggestions',
    '',
    ...(suggestions.length ? suggestions.map((x) => `- ${x}`) : ['- Nothing stands out.']),
    '',
  ].join('\n');
}
