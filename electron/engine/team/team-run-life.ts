// A team run's life between its durable steps, pure: what each durable step answers (the typed outcome of the step it
// ran, as the run machine left the run), what the workflow does next, and the run's status as the team sees it. The
// decisions inside a step are the local run machine's (run-machine.ts: the worker runs each step with the same engine
// as a local run, auto-progress one step at a time); these only read its outcome. No I/O: team-workflow.ts carries out.
import type { RunReasonCode, RunStatus } from '../../../shared/domain';

/** What a durable step answers: the run's status after it, and for a parked retry when to wake. JSON only (DBOS keeps it). */
export interface StepAnswer {
  status: RunStatus;
  code: RunReasonCode | null;
  reason: string | null;
  wakeAt: string | null;
  stepsDone: number;
  stepsTotal: number;
}

/** The workflow's next move after a durable step: the run's next step, a durable sleep until a parked retry wakes, or its end. */
export type TeamMove = { kind: 'step' } | { kind: 'sleep'; until: string } | { kind: 'end' };

/** Whether the run goes on to another durable step (planning, running, between two steps by design, parked until its time). */
export function goesOn(a: StepAnswer): boolean {
  return nextMove(a).kind !== 'end';
}

export function nextMove(a: StepAnswer): TeamMove {
  switch (a.status) {
    // A worker's process that died mid-step leaves the run interrupted: the next step goes on from its checkpoint.
    case 'planning':
    case 'running':
    case 'interrupted':
      return { kind: 'step' };
    case 'paused':
      // Paused after one step by design (auto-progress one step at a time): the next durable step runs the next one.
      return a.code === 'auto_progress_step' ? { kind: 'step' } : { kind: 'end' };
    case 'waiting':
      return a.wakeAt ? { kind: 'sleep', until: a.wakeAt } : { kind: 'end' };
    default:
      // Ended, paused for the user (needs you, a budget), waiting for its plan's approval, or queued: the workflow ends.
      return { kind: 'end' };
  }
}

/** The team's status of the run after a durable step: between two steps by design it is running, and says nothing more. */
export function teamStatusOf(a: StepAnswer): { status: RunStatus; reason: string | null; reason_code: RunReasonCode | null } {
  if (a.status === 'planning' || a.status === 'interrupted' || (a.status === 'paused' && a.code === 'auto_progress_step'))
    return { status: 'running', reason: null, reason_code: null };
  return { status: a.status, reason: a.reason, reason_code: a.code };
}
