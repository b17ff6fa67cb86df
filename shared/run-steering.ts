// Which of the user's steering actions a run's status allows: one table for the local engine (Stop in run-scheduler.ts,
// Resume and Retry in run-recovery.ts, Raise budget in engine.ts, all through errors.ts's refuseSteering), the team
// client (team-client.ts) and the screens (renderer/src/lib/run-actions.ts, RaiseBudget.tsx, TeamRunScreen.tsx), so a run the app offers to resume
// is one the engine resumes, on this machine or on the team's. Pure data and two functions; no Node, no DOM.
import type { RunReasonCode, RunStatus } from './domain';

/** The user's steering of a run that exists: Stop, Resume (also Retry now of a parked run), Retry, Raise budget. */
export type SteerAction = 'stop' | 'resume' | 'retry' | 'raiseBudget';

/** `yes`: the action applies; `busy`: the run is under way (stop it or wait); `over`: nothing to do (it ended, or it is not going). */
export type Steer = 'yes' | 'busy' | 'over';

export const RUN_STEERING: Readonly<Record<RunStatus, Readonly<Record<SteerAction, Steer>>>> = {
  planning: { stop: 'yes', resume: 'busy', retry: 'busy', raiseBudget: 'yes' },
  running: { stop: 'yes', resume: 'busy', retry: 'busy', raiseBudget: 'yes' },
  // In a queue: it starts (or goes on) when a slot frees; Stop takes it out.
  queued: { stop: 'yes', resume: 'busy', retry: 'busy', raiseBudget: 'yes' },
  // Parked until its wake time: Resume is "Retry now"; Stop cancels it.
  waiting: { stop: 'yes', resume: 'yes', retry: 'yes', raiseBudget: 'yes' },
  // A drafted plan: Resume with the approval starts it; nothing is committed for a Retry to continue after.
  waiting_approval: { stop: 'yes', resume: 'yes', retry: 'over', raiseBudget: 'yes' },
  paused: { stop: 'over', resume: 'yes', retry: 'yes', raiseBudget: 'yes' },
  interrupted: { stop: 'over', resume: 'yes', retry: 'yes', raiseBudget: 'yes' },
  failed: { stop: 'over', resume: 'yes', retry: 'yes', raiseBudget: 'yes' },
  cancelled: { stop: 'over', resume: 'yes', retry: 'yes', raiseBudget: 'yes' },
  succeeded: { stop: 'over', resume: 'over', retry: 'over', raiseBudget: 'over' },
};

export function canSteer(status: RunStatus, action: SteerAction): boolean {
  return RUN_STEERING[status][action] === 'yes';
}

/**
 * "Raise budget and continue": the table lets the run's budget be raised and the run resume, and nothing runs it now (a
 * Stop of it is over). Whether a budget is what stopped it is its reason code's to say (task_budget, daily_budget).
 */
export function canRaiseAndContinue(status: RunStatus): boolean {
  const r = RUN_STEERING[status];
  return r.raiseBudget === 'yes' && r.resume === 'yes' && r.stop === 'over';
}

const VERB: Record<SteerAction, string> = { stop: 'stop', resume: 'resume', retry: 'retry', raiseBudget: 'raise the budget of' };

/**
 * Why the action does not apply to a run in `status` (null when it does), as the error the engine and the team client
 * throw: `run_busy` for a run under way, `bad_arguments` for one with nothing to do. `what` names the run ("Run x",
 * "Team run x").
 */
export function steeringRefusal(what: string, status: RunStatus, action: SteerAction): { code: 'run_busy' | 'bad_arguments'; message: string } | null {
  const verdict = RUN_STEERING[status][action];
  if (verdict === 'yes') return null;
  if (verdict === 'busy') return { code: 'run_busy', message: `${what} is ${status}; stop it first, or wait for it to end, to ${VERB[action]} it.` };
  if (status === 'succeeded') return { code: 'bad_arguments', message: `${what} already succeeded; there is nothing to ${VERB[action]}.` };
  return { code: 'bad_arguments', message: `${what} is ${status}; there is nothing to ${VERB[action]}.` };
}

/** A run paused between two steps (auto-progress, or the user's "no" at the prompt): nothing failed; it waits to be resumed, as an interrupted run does. Here, not in domain.ts: the store's light path (`ratchet list`) asks it without loading zod's schemas. */
export function pausedBetweenSteps(status: string, code: RunReasonCode | null | undefined): boolean {
  return status === 'paused' && (code === 'auto_progress_step' || code === 'auto_progress_phase' || code === 'paused_by_user');
}
