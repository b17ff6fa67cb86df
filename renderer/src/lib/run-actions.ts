// Which actions a run's state allows, and which one is primary: pure, so the table is tested without the screen.
import type { RunStatus, StatusDocument } from '../../../shared/domain';
import { canSteer, RUN_STEERING } from '../../../shared/run-steering';

export type RunAction = 'approve' | 'retryNow' | 'retry' | 'resume' | 'runAnyway' | 'startAgain' | 'revise' | 'stop';

export interface RunActionPlan {
  /** The one action the run most likely needs (null: none stands out, or another control — Raise budget — takes the role). */
  primary: RunAction | null;
  /** Every action offered, in display order (the primary among them). */
  actions: RunAction[];
}

/** A step is committed: Retry can continue after it; without one, only starting again or resuming can. */
export function hasCompletedStep(doc: StatusDocument): boolean {
  return doc.steps.some((s) => s.status === 'succeeded' && s.commit !== null);
}

/** Stopped before any step's attempt began: nothing to resume, no step to skip, only to start again (issue 34 item 10). */
export function stoppedBeforeStart(doc: StatusDocument): boolean {
  return doc.status === 'cancelled' && doc.steps.every((s) => s.attempts.length === 0 && s.commit === null);
}

/**
 * The actions that can work for the run's state:
 * - drafted plan waiting: approve (primary), stop;   waiting to retry: retry now (primary), revise, stop;
 * - running/planning: revise, stop;   queued: none here (QueueControls offers Run next, Start later, Cancel);
 * - failed at the pre-run check (the environment fails a gate on the base commit): run anyway (primary), start again, revise;
 * - failed with a committed step: retry (primary), resume, start again, revise;
 * - failed or cancelled with no committed step: start again (primary), resume, revise — Retry would only refuse;
 * - paused, interrupted, or cancelled with a committed step: resume (primary), start again, revise;
 * - cancelled before any attempt began: start again (primary), revise;
 * - paused for its budget: as paused, but Raise budget and continue is the primary (`budgetPause`);
 * - succeeded: nothing.
 */
export function runActionsFor(doc: StatusDocument, opts: { budgetPause?: boolean } = {}): RunActionPlan {
  const done = hasCompletedStep(doc);
  // Only what the engine's steering table (shared/run-steering.ts) lets it do: the local engine and the team client refuse the rest.
  const plan = (primary: RunAction | null, actions: RunAction[]): RunActionPlan => {
    const offered = actions.filter((a) => steerable(doc.status, a));
    return { primary: primary && offered.includes(primary) ? primary : null, actions: offered };
  };
  switch (doc.status) {
    case 'waiting_approval':
      return plan('approve', ['approve', 'stop']);
    case 'waiting':
      return plan('retryNow', ['retryNow', 'revise', 'stop']);
    case 'running':
    case 'planning':
      return plan(null, ['revise', 'stop']);
    // A queued run's place, priority and Cancel are QueueControls' (next to these actions).
    case 'queued':
      return plan(null, []);
    case 'succeeded':
      return plan(null, []);
    case 'failed':
      // The pre-run check stopped it (the environment fails a gate on the base commit): the same run is started anyway,
      // as `ratchet run --run-anyway` starts one; a plain resume would stop at the same check.
      if (!done && doc.reasonCode === 'environment_failed' && doc.environment?.baseline?.ready === false)
        return plan('runAnyway', ['runAnyway', 'startAgain', 'revise']);
      return done ? plan('retry', ['retry', 'resume', 'startAgain', 'revise']) : plan('startAgain', ['startAgain', 'resume', 'revise']);
    case 'interrupted':
      return plan('resume', ['resume', 'startAgain', 'revise']);
    case 'paused':
      return plan(opts.budgetPause ? null : 'resume', ['resume', 'startAgain', 'revise']);
    case 'cancelled':
      if (stoppedBeforeStart(doc)) return plan('startAgain', ['startAgain', 'revise']);
      return done ? plan('resume', ['resume', 'startAgain', 'revise']) : plan('startAgain', ['startAgain', 'resume', 'revise']);
  }
}

/** Whether the steering table lets the engine carry out the action on a run in `status` (starting again and revising make a new attempt at the task, not a steer of this run). */
export function steerable(status: RunStatus, action: RunAction): boolean {
  switch (action) {
    case 'approve':
      return status === 'waiting_approval' && canSteer(status, 'resume');
    case 'retryNow':
      return status === 'waiting' && canSteer(status, 'resume');
    case 'runAnyway':
      return canSteer(status, 'resume');
    case 'resume':
    case 'retry':
    case 'stop':
      return canSteer(status, action);
    case 'startAgain':
      return status !== 'succeeded' && RUN_STEERING[status].stop === 'over';
    case 'revise':
      return true;
  }
}
