// A team run's life between its durable steps, pure: the same run machine as a local run (run/run-machine.ts), fed the
// typed outcome each durable step answers (the events the worker's run loop fed its own machine for the step it ran),
// so a team run and a local run decide every status the same way. The machine's commands come out as what the workflow
// carries out (team-workflow.ts): its setStatus becomes the team's status (one projection write and a DBOS event), its
// runStep the next durable step, a parked end a durable sleep before the run goes on as a local scheduler wakes it. What
// the machine asks of the worktree (prepare, rescue, step statuses, notices) the worker's run loop has done inside the step.
import type { RunReasonCode, RunStatus } from '../../../shared/domain';
import { initialRunState, nextRun, type RunCommand, type RunEvent, type RunMachineState, type StepRef } from '../run/run-machine';

/** What a durable step answers. JSON only (DBOS keeps it): the step's outcome, and how the run stands on the worker after it. */
export interface StepAnswer {
  /**
   * The outcome of the step it ran, as its worker's run machine was told it: `stepFinished` (then `rescued` after a
   * failed step's rescue commit), or what ended the run before a step (`prepared` not ready, `crashed`, `reconciled`
   * with every step in git). Empty when the durable step ran no step (`begin`).
   */
  events: RunEvent[];
  /** The steps still to run after it, in order (the worker's store). */
  pending: StepRef[];
  /** The run's status on the worker (its local machine paused it after one step by design): for logs, not for steering. */
  status: RunStatus;
  code: RunReasonCode | null;
  reason: string | null;
  stepsDone: number;
  stepsTotal: number;
}

/** What the team sees of the run: the run machine's status, with its reason in words and as a code. */
export interface TeamStatus {
  status: RunStatus;
  reason: string | null;
  reason_code: RunReasonCode | null;
}

/** The workflow's next move: another durable step, a durable sleep until a parked run wakes (then it goes on), or its end. */
export type TeamMove = { kind: 'step' } | { kind: 'sleep'; until: string } | { kind: 'end' };

/** One turn of the workflow: the machine's state, the statuses to project in order, and the next move. */
export interface TeamTurn {
  state: RunMachineState;
  project: TeamStatus[];
  move: TeamMove;
}

/** The machine's events fed in order, and what its commands ask of the workflow. */
function feed(state: RunMachineState, events: readonly RunEvent[], pending: StepRef[]): TeamTurn {
  const commands: RunCommand[] = [];
  const queue = [...events];
  for (let e = queue.shift(); e; e = queue.shift()) {
    if (state.ended) break;
    const t = nextRun(state, e, new Date(0));
    state = t.state;
    commands.push(...t.commands);
    // The environment is the worker's to make ready, inside each durable step: here it is ready with the steps left.
    if (t.commands.some((c) => c.kind === 'prepare')) queue.unshift({ type: 'prepared', ready: 'ready', pending, total: state.total || pending.length });
    // An outcome cut short (a failed step's rescue never answered): the run ends as a crash would, never half-decided.
    if (!queue.length && !state.ended && !t.commands.some((c) => c.kind === 'runStep'))
      queue.push({ type: 'crashed', message: "its worker answered the step's outcome incompletely" });
  }
  const project: TeamStatus[] = [];
  let move: TeamMove = { kind: 'end' };
  for (const c of commands) {
    if (c.kind === 'setStatus') {
      project.push({ status: c.status, reason: c.reason, reason_code: c.code });
      move = c.status === 'waiting' && c.wakeAt ? { kind: 'sleep', until: c.wakeAt } : { kind: 'end' };
    }
    if (c.kind === 'runStep') move = { kind: 'step' };
  }
  return { state, project, move };
}

/**
 * The run's life (re)starting on the team: after `begin`, and after a durable sleep (as a local scheduler resumes a parked
 * run). The machine runs every step left, one durable step each; a run git already holds whole succeeds at once.
 */
export function teamStart(runId: string, a: Pick<StepAnswer, 'events' | 'pending'>): TeamTurn {
  // A begin that failed on its worker answers the run's outcome already (a crash).
  const events: RunEvent[] = a.events.length ? a.events : [{ type: 'reconciled', allDone: a.pending.length === 0 }];
  return feed(initialRunState(runId, { auto: 'run' }), events, a.pending);
}

/** After a durable step: its outcome fed to the machine, which says what the team sees and what the workflow does next. */
export function teamAfterStep(state: RunMachineState, a: StepAnswer): TeamTurn {
  // A durable step that ran no step through the machine (its worker failed outside it) ends the run as a crash would.
  const events: RunEvent[] = a.events.length ? a.events : [{ type: 'crashed', message: a.reason ?? 'the step answered nothing' }];
  // The steps left are the worker's word: a durable step run again (its push refused) may have gone on past the one asked.
  return feed({ ...state, pending: a.pending }, events, a.pending);
}

/** Whether the run goes on to another durable step after this answer (its worker keeps the run's remote branch as known). */
export function goesOn(runId: string, a: StepAnswer): boolean {
  const ran: StepRef = { index: a.stepsDone, title: '', phase: null };
  const running = {
    ...initialRunState(runId, { auto: 'run' }),
    status: 'running' as const,
    pending: a.pending,
    total: a.stepsTotal,
    current: ran,
    lastRun: ran,
  };
  return teamAfterStep(running, a).move.kind !== 'end';
}
