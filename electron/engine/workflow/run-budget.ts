// The one rule for a run's budgets: the workflow's own `budget`, else Settings › Budgets, with the task budget typed in
// New task over either's task_usd. Every way a run is made (CLI, app, restart) goes through prepareRun, which asks this.
import type { Workflow } from './schema';

type Budget = NonNullable<Workflow['budget']>;

/** Settings › Budgets (settings.json): null is "no budget". */
export interface BudgetSettings {
  taskUsd: number | null;
  dailyUsd: number | null;
  alertAt: number;
}

/** The alert threshold when nothing names one (the schema's default). */
export const DEFAULT_ALERT_AT = 0.8;

/**
 * A run's budget:
 * 1. A workflow with a `budget` key keeps it as a whole: a value it leaves out (say `daily_usd`) is not taken from Settings.
 * 2. A workflow without one runs under Settings' budgets, alert threshold included; when Settings say nothing beyond the
 *    defaults the run has no budget of its own (the policy's defaults and the preset's daily budget apply).
 * 3. A task budget typed for this run (New task) replaces the task_usd of either; the rest stays as 1 or 2 gave it.
 * (`ratchet resume --budget` raises a run's budget later; that is kept with the run, not in its workflow.)
 */
export function runBudget(own: Budget | undefined, settings: BudgetSettings, typedTaskUsd?: number): Budget | undefined {
  const { taskUsd, dailyUsd, alertAt } = settings;
  const saysSomething = taskUsd !== null || dailyUsd !== null || alertAt !== DEFAULT_ALERT_AT;
  const base =
    own ??
    (saysSomething
      ? { ...(taskUsd !== null ? { task_usd: taskUsd } : {}), ...(dailyUsd !== null ? { daily_usd: dailyUsd } : {}), alert_at: alertAt }
      : undefined);
  return typedTaskUsd === undefined ? base : { alert_at: alertAt, ...base, task_usd: typedTaskUsd };
}

/** The workflow with runBudget's budget (the same object when that changes nothing). */
export function withRunBudget(workflow: Workflow, settings: BudgetSettings, typedTaskUsd?: number): Workflow {
  const budget = runBudget(workflow.budget, settings, typedTaskUsd);
  return budget === workflow.budget ? workflow : { ...workflow, budget };
}
