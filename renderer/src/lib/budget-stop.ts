// Which budget stopped a run. The run's status carries no code for it yet (the store writes the status with its reason
// only), so this reads the engine's reason (runs/budget.ts's words); the one place the app decides by those words.
import type { RunStatus } from '../../../shared/domain';

const BUDGET_REACHED = /\b(task|daily) budget (?:of )?\$\S+ reached/;

/** 'task' or 'daily' when the run paused or waits because that budget was reached; null otherwise. */
export function budgetStopOf(status: RunStatus | string, reason: string | null | undefined): 'task' | 'daily' | null {
  if (status !== 'paused' && status !== 'waiting') return null;
  const m = BUDGET_REACHED.exec(reason ?? '');
  return m ? (m[1] as 'task' | 'daily') : null;
}
