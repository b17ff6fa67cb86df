// Test helper: the run machine's events as its tests feed them (a run reconciled and prepared, a step that finished).
import type { RunEvent, StepRef } from '../run/run-machine';
import type { StepOutcome } from '../step/step-state';

type StepFinished = Extract<RunEvent, { type: 'stepFinished' }>;

/** The events that start a run: reconciled with git, its worktree prepared, `pending` steps to go. */
export function runStarted(pending: StepRef[]): RunEvent[] {
  return [
    { type: 'reconciled', allDone: false },
    { type: 'prepared', ready: 'ready', pending, total: pending.length },
  ];
}

/** A step that finished with `outcome` (by default: not stopped by the user, the lease held, one step committed). */
export function stepFinished(outcome: StepOutcome, over: Partial<StepFinished> = {}): RunEvent {
  return { type: 'stepFinished', outcome, userStop: false, leaseLost: false, committedSteps: 1, ...over };
}

/** A step committed as `sha`. */
export function stepDone(sha = 'c'): RunEvent {
  return stepFinished({ kind: 'done', commit: sha });
}
