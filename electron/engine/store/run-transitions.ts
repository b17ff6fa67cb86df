// The run's statuses and the one table of the changes allowed between them. Pure data; the store refuses any other
// change (see Store.setRunStatus), so a status written out of turn is a bug that fails loudly, not a silent write.
import type { RunStatus } from '../../../shared/domain';

/** Where a run may go from each status. Writing the same status again (a new reason, a new wake time) is always allowed. */
export const RUN_TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  // A new run: drafted plans wait for approval; a run may be queued, run, or be rebuilt by `ratchet recover` as it was.
  planning: ['waiting_approval', 'queued', 'running', 'succeeded', 'failed', 'cancelled', 'paused', 'interrupted'],
  // Approved (paused, resumed to start it), or queued to resume after approval.
  waiting_approval: ['paused', 'queued'],
  // Leaving the queue, a run goes back to the status it had (the queue keeps it), or is cancelled before it started.
  queued: ['planning', 'waiting_approval', 'running', 'waiting', 'paused', 'failed', 'succeeded', 'cancelled', 'interrupted'],
  // The run loop's outcomes; `interrupted` when its process is gone.
  running: ['waiting', 'paused', 'failed', 'succeeded', 'cancelled', 'interrupted', 'queued'],
  // Woken (a backoff, a rate-limit hold, a daily budget), stopped while it waited, or found without its process.
  waiting: ['running', 'paused', 'failed', 'succeeded', 'cancelled', 'interrupted', 'queued'],
  // Retry/resume runs them again (execute finds them done when git says so), or queues them for a slot.
  paused: ['running', 'succeeded', 'queued'],
  failed: ['running', 'succeeded', 'queued'],
  cancelled: ['running', 'succeeded', 'queued'],
  interrupted: ['running', 'succeeded', 'queued'],
  // Done: the branch holds every step. Start again makes a new run; a stray queue request goes back to it; a review
  // round (review/review-round.ts) runs it again, for the one step "Address review" it adds.
  succeeded: ['queued', 'running'],
};

export function canChangeRunStatus(from: RunStatus, to: RunStatus): boolean {
  return from === to || RUN_TRANSITIONS[from].includes(to);
}

/** A status change the table refuses: a bug in whoever asked for it, never the user's doing. */
export class IllegalRunTransition extends Error {
  constructor(
    readonly runId: string,
    readonly from: RunStatus,
    readonly to: RunStatus,
  ) {
    super(`Bug: run ${runId} may not go from ${from} to ${to} (see RUN_TRANSITIONS in store/run-transitions.ts).`);
    this.name = 'IllegalRunTransition';
  }
}

/** Throws IllegalRunTransition unless the table allows the change. */
export function assertRunTransition(runId: string, from: RunStatus, to: RunStatus): void {
  if (!canChangeRunStatus(from, to)) throw new IllegalRunTransition(runId, from, to);
}
