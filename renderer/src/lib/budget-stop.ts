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
