// Which budget stopped a run, by the reason code the run machine gave its status (shared/domain.ts's RunReasonCode),
// never by the words of its reason. A run stopped at its budget before reason codes existed has its code back-filled by
// the store's migration 17, from the words this module used to read.
import type { RunReasonCode, RunStatus } from '../../../shared/domain';

/** 'task' or 'daily' when the run paused or waits because that budget was reached; null otherwise. */
export function budgetStopOf(status: RunStatus | string, reasonCode: RunReasonCode | null | undefined): 'task' | 'daily' | null {
  if (status !== 'paused' && status !== 'waiting') return null;
  if (reasonCode === 'task_budget') return 'task';
  if (reasonCode === 'daily_budget') return 'daily';
  return null;
}

/** A run paused at its task budget, said once in the app's words (issue 34 item 4). */
export interface BudgetPause {
  /** "Paused before a call that could cost $0.0030; $0.0016 of the budget is left." */
  sentence: string;
  /** What the next call could cost, when the agent said (null: the budget was spent before an attempt began). */
  nextCallUsd: number | null;
  /** A task budget that lets the next call go through: what was spent, plus the next call, with room to spare. */
  suggestedUsd: number;
}

const usdIn = (s: string | undefined) => (s === undefined ? null : Number(s.replace(/[$,]/g, '')));

/** Rounds up to two significant figures ($0.00461 → $0.0047, $3.21 → $3.3): an amount a person would type. */
function roundUp2(x: number): number {
  if (x <= 0) return 0.01;
  const p = 10 ** (Math.floor(Math.log10(x)) - 1);
  return Math.ceil(x / p - 1e-9) * p;
}

/**
 * The pause of a run stopped at its task budget, from the figures the engine put in its reason ("it could cost up to $X
 * and the budget leaves $Y"; the kind of stop comes from the reason code: budgetStopOf). `spent` and `budget` are the run's.
 */
export function budgetPause(reason: string | null, spent: number, budget: number | null): BudgetPause {
  const m = /could cost up to (\$[\d.,]+) and the budget leaves (\$[\d.,]+)/.exec(reason ?? '');
  const next = usdIn(m?.[1]);
  const left = usdIn(m?.[2]) ?? Math.max(0, (budget ?? spent) - spent);
  const money = (x: number) => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;
  const sentence =
    next !== null
      ? `Paused before a call that could cost ${money(next)}; ${money(left)} of the budget is left.`
      : `Paused: the task budget${budget !== null ? ` of ${money(budget)}` : ''} is spent (${money(spent)}).`;
  // The engine lets a run spend 10 % past its budget: a budget of (spent + next call) clears it; doubled, it leaves room for the calls after.
  const suggestedUsd = roundUp2(Math.max(spent + (next ?? spent) * 2, (budget ?? 0) * 1.5));
  return { sentence, nextCallUsd: next, suggestedUsd };
}
