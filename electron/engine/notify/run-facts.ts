// What a notification may say about a run, read from the store: its task title, the step it stopped at and that step's error class — never a reason text.
import type { ErrorClass } from '../../../shared/domain';
import type { Store } from '../store/store';
import type { StepRef } from './messages';

/** The error class of the step's last attempt that ended with one (null when none did). */
export function lastErrorClass(store: Store, runId: string, stepIndex: number): ErrorClass | null {
  const attempts = store.getAttempts(runId, stepIndex);
  for (let i = attempts.length - 1; i >= 0; i--) if (attempts[i]!.error_class) return attempts[i]!.error_class;
  return null;
}

export interface OwnRunFacts {
  task: string;
  /** The step the run stopped at: the first one not done that has attempts (null when none has). */
  step: StepRef | null;
  errorClass: ErrorClass | null;
}

/** The facts an OS notification is written from (the run's stored reason holds gate output, so it is not one of them). */
export function ownRunFacts(store: Store, runId: string): OwnRunFacts | null {
  const run = store.getRun(runId);
  if (!run) return null;
  const stopped = store.getSteps(runId).find((s) => s.status !== 'succeeded' && s.status !== 'skipped' && store.getAttempts(runId, s.step_index).length > 0);
  return {
    task: run.task_title,
    step: stopped ? { index: stopped.step_index, title: stopped.title } : null,
    errorClass: stopped ? lastErrorClass(store, runId, stopped.step_index) : null,
  };
}
