// Pure budget check before an attempt (cost control): stop over the task or daily budget, alert once past alert_at.
import { money as usd } from '../../../shared/money';

export interface BudgetFacts {
  taskUsd: number | null;
  dailyUsd: number | null;
  alertAt: number;
  taskSpent: number;
  daySpent: number;
  /** Alerts already raised (task: for this task; daily: today). */
  alerted: { task: boolean; daily: boolean };
  /** The run, named in the reason's `ratchet resume` command (a placeholder when not given). */
  runId?: string;
}

export type BudgetVerdict =
  { ok: true; alerts: Array<{ kind: 'task' | 'daily'; spent: number; limit: number }> } | { ok: false; kind: 'task' | 'daily'; reason: string };

export function checkBudget(f: BudgetFacts): BudgetVerdict {
  if (f.taskUsd !== null && f.taskSpent >= f.taskUsd) {
    return {
      ok: false,
      kind: 'task',
      reason: `task budget of ${usd(f.taskUsd)} reached (${usd(f.taskSpent)} spent); nothing is lost: give the run more with ratchet resume ${f.runId ?? '<run-id>'} --budget <usd> (in the app: Raise budget and continue)`,
    };
  }
  if (f.dailyUsd !== null && f.daySpent >= f.dailyUsd) {
    return {
      ok: false,
      kind: 'daily',
      reason: `daily budget of ${usd(f.dailyUsd)} reached (${usd(f.daySpent)} spent today); runs wait until tomorrow, or raise budget.daily_usd`,
    };
  }
  const alerts: Array<{ kind: 'task' | 'daily'; spent: number; limit: number }> = [];
  if (f.taskUsd !== null && !f.alerted.task && f.taskSpent >= f.taskUsd * f.alertAt) alerts.push({ kind: 'task', spent: f.taskSpent, limit: f.taskUsd });
  if (f.dailyUsd !== null && !f.alerted.daily && f.daySpent >= f.dailyUsd * f.alertAt) alerts.push({ kind: 'daily', spent: f.daySpent, limit: f.dailyUsd });
  return { ok: true, alerts };
}

/** Local midnight at the start of `now`'s day, and the next one. */
export function dayBounds(now: Date): { start: Date; next: Date } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return { start, next };
}

/** A budget is a cap: a run never spends more than this share past its task (or daily) budget. */
export const BUDGET_OVERRUN = 0.1;

export interface SpendFacts {
  taskUsd: number | null;
  dailyUsd: number | null;
  taskSpent: number;
  daySpent: number;
}

/** What the agent may still spend before the next API call: the tighter of the two budgets plus 10 %, less what was spent. */
export function spendLimit(f: SpendFacts): { usd: number; kind: 'task' | 'daily' } | null {
  const task = f.taskUsd === null ? null : f.taskUsd * (1 + BUDGET_OVERRUN) - f.taskSpent;
  const daily = f.dailyUsd === null ? null : f.dailyUsd * (1 + BUDGET_OVERRUN) - f.daySpent;
  if (task === null && daily === null) return null;
  if (daily === null || (task !== null && task <= daily)) return { usd: task!, kind: 'task' };
  return { usd: daily, kind: 'daily' };
}

/** The run's reason when the agent stopped before a call its budget could not cover. */
export function budgetCapReason(kind: 'task' | 'daily', f: SpendFacts & { runId?: string }, agentNote: string): string {
  if (kind === 'daily') {
    return `daily budget of ${usd(f.dailyUsd ?? 0)} reached (${usd(f.daySpent)} spent today): the agent ${agentNote}, and a run never spends more than 10 % past a budget; runs wait until tomorrow, or raise budget.daily_usd`;
  }
  return `task budget of ${usd(f.taskUsd ?? 0)} reached (${usd(f.taskSpent)} spent): the agent ${agentNote}, and a run never spends more than 10 % past its budget; nothing is lost: give the run more with ratchet resume ${f.runId ?? '<run-id>'} --budget <usd> (in the app: Raise budget and continue)`;
}

/**
 * Today's budget and spend as a step checks them: the run's daily budget and this store's spend since `dayStart`, and
 * — on a team worker — the team's daily budget (the lower of the two applies) and what the team's other workers spent today.
 */
export function dayFacts(
  store: { spentSinceUsd(sinceIso: string): number },
  deps: { sharedDay?: () => SharedDay },
  dailyUsd: number | null,
  dayStart: Date,
): { dailyUsd: number | null; daySpent: number } {
  const shared = deps.sharedDay?.();
  const own = store.spentSinceUsd(dayStart.toISOString());
  if (!shared) return { dailyUsd, daySpent: own };
  const limits = [dailyUsd, shared.dailyUsd].filter((x): x is number => x !== null);
  return { dailyUsd: limits.length ? Math.min(...limits) : null, daySpent: own + shared.elsewhereUsd };
}

/** A team's day as a worker sees it: the team's daily budget (null: none) and what the other workers spent today. */
export interface SharedDay {
  dailyUsd: number | null;
  elsewhereUsd: number;
}
