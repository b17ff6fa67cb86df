// What-if: replays the recorded attempts of a period under another retry policy and says how many runs would change
// outcome, and which (the most expensive of them).
import { ERROR_CLASSES, type AttemptOutcome, type ErrorClass, type RunReasonCode, type RunStatus } from '../../../shared/domain';
import { DEFAULT_LIMITS, ESCALATE_TO_USER, MAX_ATTEMPTS_PER_STEP, NON_RETRIABLE, PRESETS, type Limits } from '../policy/policy';
import { money } from '../../../shared/money';

export interface HistoryAttempt {
  outcome: AttemptOutcome;
  errorClass: ErrorClass | null;
  costUsd: number;
}

export interface HistoryStep {
  index: number;
  title: string;
  /** Every recorded attempt of the step, in order (a user's retries and resumes included). */
  attempts: readonly HistoryAttempt[];
}

export interface HistoryRun {
  runId: string;
  title: string;
  status: RunStatus;
  /** Why it stopped: its reason code tells a budget pause from other pauses; its reason, for a run from before codes. */
  reason: string | null;
  reasonCode?: RunReasonCode | null;
  steps: readonly HistoryStep[];
}

/** What the user picks on the dashboard: a preset, and/or max retries, per-class limits, a task budget. */
export interface WhatIfChoice {
  preset?: keyof typeof PRESETS;
  maxRetries?: number;
  limits?: Partial<Limits>;
  /** Per-run budget in USD; null or absent: no budget. */
  taskUsd?: number | null;
}

export interface WhatIfPolicy {
  limits: Limits;
  taskUsd: number | null;
}

/** `needs_you`: the policy hands the run to the user (paused, escalated). `unknown`: the policy would have made an attempt that never happened. */
export type WhatIfOutcome = 'succeeded' | 'failed' | 'needs_you' | 'budget' | 'unknown';

export interface RunVerdict {
  runId: string;
  title: string;
  actual: WhatIfOutcome | 'other';
  simulated: WhatIfOutcome;
  actualCostUsd: number;
  /** What the attempts the policy would have made cost (a lower bound when the outcome is unknown). */
  simulatedCostUsd: number;
  /** One sentence: where and why the simulated run ends. */
  reason: string;
}

export interface WhatIfTotals {
  succeeded: number;
  failed: number;
  needsYou: number;
  budget: number;
  unknown: number;
  costUsd: number;
}

export interface WhatIfResult {
  policy: WhatIfPolicy;
  runs: number;
  actual: WhatIfTotals;
  simulated: WhatIfTotals;
  /** The CHANGED_LISTED most expensive runs whose outcome differs, most expensive first. */
  changed: RunVerdict[];
  /** How many runs' outcome differs in all. */
  changedCount: number;
  assumptions: string[];
}

/**
 * How many changed runs the answer lists. A year of history can change tens of thousands of runs; the answer crosses from
 * the stats worker to the host (structured clone, on the host's thread) and on to the app, so its size must not grow with
 * the period: at 1M attempts the full list stalled the host 59 ms (bench/dashboard.bench.ts, P5b's slowest host call).
 */
export const CHANGED_LISTED = 50;

export const WHAT_IF_ASSUMPTIONS = [
  'Each recorded attempt is replayed as it happened: an attempt that did not happen is unknown, never guessed.',
  'Attempts made after a retry or resume by the user count as if the policy had made them.',
  'Runs still running, being planned or stopped by you are left out.',
  'A budget stops a run before the attempt that would start at or above it.',
];

export function resolveChoice(choice: WhatIfChoice): WhatIfPolicy {
  const preset = choice.preset ? PRESETS[choice.preset] : null;
  const limits: Limits = { ...DEFAULT_LIMITS, test_failure: choice.maxRetries ?? preset?.max_retries ?? DEFAULT_LIMITS.test_failure };
  // A test-first violation is retried like a test failure (policy.ts): the same limit unless one is chosen for it.
  limits.tdd_violation = limits.test_failure;
  for (const c of ERROR_CLASSES) {
    const v = choice.limits?.[c];
    if (v !== undefined) limits[c] = Math.max(0, Math.floor(v));
  }
  return { limits, taskUsd: choice.taskUsd ?? null };
}

/** How the run really ended, in the what-if's terms; `other` for runs left out (running, planning, cancelled). */
export function actualOutcome(run: Pick<HistoryRun, 'status' | 'reason' | 'reasonCode'>): WhatIfOutcome | 'other' {
  switch (run.status) {
    case 'succeeded':
      return 'succeeded';
    case 'failed':
      return 'failed';
    case 'paused':
      if (run.reasonCode) return run.reasonCode === 'task_budget' ? 'budget' : 'needs_you';
      return /budget/i.test(run.reason ?? '') ? 'budget' : 'needs_you';
    case 'waiting':
    case 'waiting_approval':
    case 'interrupted':
      return 'needs_you';
    default:
      return 'other';
  }
}

/**
 * The policy's word after a failed attempt: true when the step gets no further attempt — a class no retry fixes, its
 * `n`-th failure of class `c` beyond the limit, or attempt `i + 1` (0-based `i`) at the hard cap. The estimate replays it too.
 */
export function policyStops(c: ErrorClass, n: number, i: number, limits: Limits): boolean {
  return NON_RETRIABLE.has(c) || n > limits[c] || i + 1 >= MAX_ATTEMPTS_PER_STEP;
}

const CLASS_LABEL = (c: ErrorClass) => c.replace(/_/g, ' ');

/** Replays one run's recorded attempts under `policy`. Pure. */
export function simulateRun(run: HistoryRun, policy: WhatIfPolicy): Omit<RunVerdict, 'actual' | 'actualCostUsd'> {
  let cost = 0;
  const verdict = (simulated: WhatIfOutcome, reason: string) => ({ runId: run.runId, title: run.title, simulated, simulatedCostUsd: cost, reason });
  for (const step of [...run.steps].sort((a, b) => a.index - b.index)) {
    const used = new Map<ErrorClass, number>();
    const where = `step ${step.index} "${step.title}"`;
    if (step.attempts.length === 0) return verdict('unknown', `${where} was never attempted in the recorded run`);
    for (let i = 0; ; i++) {
      const a = step.attempts[i];
      if (!a) return verdict('unknown', `${where} would have had attempt ${i + 1}, which was never made`);
      if (policy.taskUsd !== null && cost >= policy.taskUsd)
        return verdict('budget', `the ${money(policy.taskUsd)} budget is spent before attempt ${i + 1} of ${where}`);
      cost += a.costUsd;
      if (a.outcome === 'passed' || a.outcome === 'flaky') break;
      // A test-first step's test attempt (its test failing as it should) is no failure: the implementation follows.
      if (a.outcome === 'red') continue;
      // An attempt cut by a crash or a stop is not the policy's to count: the resume's next attempt carries on.
      if (a.outcome === 'interrupted' && step.attempts[i + 1]) continue;
      if (a.outcome === 'running' || a.outcome === 'interrupted') return verdict('unknown', `attempt ${i + 1} of ${where} did not finish in the recorded run`);
      const c = a.errorClass ?? 'unknown';
      const n = (used.get(c) ?? 0) + 1;
      used.set(c, n);
      if (policyStops(c, n, i, policy.limits)) {
        const why = NON_RETRIABLE.has(c)
          ? `a ${CLASS_LABEL(c)} is not retried`
          : `${policy.limits[c]} ${CLASS_LABEL(c)} ${policy.limits[c] === 1 ? 'retry' : 'retries'} used up`;
        return ESCALATE_TO_USER.has(c)
          ? verdict('needs_you', `${where} goes to you after attempt ${i + 1}: ${why}`)
          : verdict('failed', `${where} fails after attempt ${i + 1}: ${why}`);
      }
    }
  }
  return verdict('succeeded', `every step passes within the policy (${money(cost)})`);
}

function emptyTotals(): WhatIfTotals {
  return { succeeded: 0, failed: 0, needsYou: 0, budget: 0, unknown: 0, costUsd: 0 };
}

function add(t: WhatIfTotals, o: WhatIfOutcome, cost: number): void {
  if (o === 'succeeded') t.succeeded++;
  else if (o === 'failed') t.failed++;
  else if (o === 'needs_you') t.needsYou++;
  else if (o === 'budget') t.budget++;
  else t.unknown++;
  t.costUsd += cost;
}

/** The whole period under `choice`: totals as recorded and as simulated, and the runs that change outcome. Pure. */
export function whatIf(history: Iterable<HistoryRun>, choice: WhatIfChoice): WhatIfResult {
  const policy = resolveChoice(choice);
  const actual = emptyTotals();
  const simulated = emptyTotals();
  const changed: RunVerdict[] = [];
  let changedCount = 0;
  let runs = 0;
  for (const run of history) {
    const a = actualOutcome(run);
    if (a === 'other') continue;
    runs++;
    const actualCost = run.steps.reduce((s, st) => s + st.attempts.reduce((x, at) => x + at.costUsd, 0), 0);
    const v = simulateRun(run, policy);
    add(actual, a, actualCost);
    add(simulated, v.simulated, v.simulatedCostUsd);
    if (v.simulated !== a) {
      changedCount++;
      changed.push({ ...v, actual: a, actualCostUsd: actualCost });
      // Only the dearest are listed: the rest need not be kept while a long period is replayed.
      if (changed.length >= 4 * CHANGED_LISTED) keepDearest(changed);
    }
  }
  keepDearest(changed);
  return { policy, runs, actual, simulated, changed, changedCount, assumptions: WHAT_IF_ASSUMPTIONS };
}

/** Sorts `changed` most expensive first (then by run id, so ties list the same way) and keeps the first CHANGED_LISTED. */
function keepDearest(changed: RunVerdict[]): void {
  changed.sort((x, y) => y.actualCostUsd - x.actualCostUsd || x.runId.localeCompare(y.runId));
  changed.length = Math.min(changed.length, CHANGED_LISTED);
}
