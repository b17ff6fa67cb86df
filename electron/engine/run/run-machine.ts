// The run's state machine beside the step's: next(state, event, now) → { state, commands }. Pure: no git, no store, no
// clock but `now`; the run loop's adapters (run-loop.ts) carry out the commands and answer with events. It decides every
// run status the run loop writes (each allowed by RUN_TRANSITIONS, which the store enforces): auto-progress, stop,
// a lost lease, budget, parking, the step's end → the run's. runLife decides the rest of a run's life, outside the run
// loop (a wait inside a step, the plan's approval, the queue, a process found gone, a stop of a run that waits): every
// status change goes through applyRunCommands (apply-run-commands.ts) and nothing else writes one. Each status comes
// with its reason twice: in words for the terminal, and as a code (shared/domain.ts's RunReasonCode) the app decides by.
import type { ErrorClass, RunReasonCode, RunStatus } from '../../../shared/domain';
import type { FailureCause, NeedsYouKind } from '../notify/messages';
import { autoProgressReason, runEndReason } from './run-reasons';
import type { StepOutcome } from './step-outcome';

export type AutoProgress = 'step' | 'phase' | 'run';

export interface StepRef {
  index: number;
  title: string;
  phase: string | null;
}

export interface RunMachineState {
  runId: string;
  /** The last status the machine wrote (null before it wrote one). */
  status: RunStatus | null;
  auto: AutoProgress | undefined;
  /** Whether the user is asked after each step (`auto: 'step'` with a confirmNext), instead of pausing. */
  interactive: boolean;
  /** A continuation that asked the agent to resolve conflicts with the moved base: the base is checked again before success. */
  checkBase: boolean;
  /** The steps still to run, in order (the store's snapshot when the run loop began). */
  pending: StepRef[];
  total: number;
  stepsRun: number;
  firstPhase: string | null | undefined;
  lastRun: StepRef | null;
  /** The step running now, or the one a pending question or rescue is about. */
  current: StepRef | null;
  /** The step that failed for good, while its rescue commit is being made. */
  failing: { step: StepRef; outcome: Extract<StepOutcome, { kind: 'fatal' }>; committedSteps: number } | null;
  ended: boolean;
}

export type RunEvent =
  /** The store agrees with the branch: whether every step is done already. */
  | { type: 'reconciled'; allDone: boolean }
  /** The worktree's environment is ready (or not); `pending` is the steps left to run. */
  | { type: 'prepared'; ready: 'ready'; pending: StepRef[]; total: number }
  | { type: 'prepared'; ready: 'stopped'; userStop: boolean; leaseLost: boolean }
  | { type: 'prepared'; ready: 'failed'; reason: string }
  /** The user's answer after a step (interactive auto-progress). */
  | { type: 'answered'; answer: 'yes' | 'no' | 'auto' }
  /** The step runner's outcome; `committedSteps` is how many steps the branch holds now. */
  | { type: 'stepFinished'; outcome: StepOutcome; userStop: boolean; leaseLost: boolean; committedSteps: number }
  /** The rescue commit of a failed step's unfinished work: what to tell the user of it ('' when none was tried). */
  | { type: 'rescued'; note: string }
  /** Something threw in the run loop: the run fails as an internal error. */
  | { type: 'crashed'; message: string }
  /** The moved base checked after the last step (`checkBase`): the files merging it would still conflict in. */
  | { type: 'baseChecked'; baseBranch: string; conflicts: readonly string[] };

export type RunCommand =
  /** `code`: why, for code that decides by it (shared/domain.ts's RunReasonCode); `reason`: the same in words, for the terminal. */
  | { kind: 'setStatus'; status: RunStatus; reason: string | null; code: RunReasonCode | null; finished?: boolean; wakeAt?: string | null }
  /** Kept in git as it stands (the run's state ref), so a process dying now is recovered as it is. */
  | { kind: 'keepState' }
  /** Make the worktree's environment ready (copy, dependencies, setup, baseline). */
  | { kind: 'prepare' }
  | { kind: 'ask'; done: StepRef; next: StepRef; total: number }
  /** HEAD after the last commit is no longer known (the user had the worktree between steps). */
  | { kind: 'forgetHead' }
  | { kind: 'runStep'; step: StepRef }
  | { kind: 'setStepStatus'; index: number; status: 'pending' | 'failed' }
  | { kind: 'rescue'; step: StepRef; errorClass: ErrorClass | null }
  | { kind: 'notifyNeedsYou'; step: StepRef; what: NeedsYouKind; extra: { attempts?: number | null; maxAttempts?: number | null; wakeAt?: string | null } }
  | { kind: 'notifyFailed'; step: StepRef | null; attempts: number | null; maxAttempts: number | null; cause: FailureCause }
  | { kind: 'notifySucceeded' }
  /** Every step passed: does merging the moved base still conflict? (answered by `baseChecked`) */
  | { kind: 'checkBase' }
  | { kind: 'end' };

export type RunStatusCommand = Extract<RunCommand, { kind: 'setStatus' }>;

export interface RunTransition {
  state: RunMachineState;
  commands: RunCommand[];
}

export function initialRunState(runId: string, opts: { auto?: AutoProgress; interactive?: boolean; checkBase?: boolean } = {}): RunMachineState {
  return {
    runId,
    status: null,
    auto: opts.auto,
    interactive: Boolean(opts.interactive),
    checkBase: Boolean(opts.checkBase),
    pending: [],
    total: 0,
    stepsRun: 0,
    firstPhase: undefined,
    lastRun: null,
    current: null,
    failing: null,
    ended: false,
  };
}

function set(
  status: RunStatus,
  reason: string | null,
  code: RunReasonCode | null,
  extra: { finished?: boolean; wakeAt?: string | null } = {},
): RunStatusCommand {
  return { kind: 'setStatus', status, reason, code, ...extra };
}

function end(s: RunMachineState, commands: RunCommand[]): RunTransition {
  const last = [...commands].reverse().find((c): c is RunStatusCommand => c.kind === 'setStatus');
  return { state: { ...s, status: last?.status ?? s.status, ended: true, current: null }, commands: [...commands, { kind: 'end' }] };
}

function succeed(s: RunMachineState): RunTransition {
  return end(s, [set('succeeded', null, null, { finished: true }), { kind: 'notifySucceeded' }]);
}

/** The next step, or a pause the auto-progress policy asks for, or the run's success when no step is left. */
function advance(s: RunMachineState): RunTransition {
  const [step, ...rest] = s.pending;
  if (!step) return s.checkBase ? { state: { ...s, current: null }, commands: [{ kind: 'checkBase' }] } : succeed(s);
  if (s.auto === 'step' && s.stepsRun >= 1) {
    if (s.interactive && s.lastRun)
      return { state: { ...s, current: step }, commands: [{ kind: 'forgetHead' }, { kind: 'ask', done: s.lastRun, next: step, total: s.total }] };
    return end(s, [
      set('paused', autoProgressReason({ kind: 'step', doneStep: s.lastRun?.index ?? step.index - 1, nextStep: step.index }), 'auto_progress_step'),
    ]);
  }
  return startStep(s, step, rest);
}

function startStep(s: RunMachineState, step: StepRef, rest: StepRef[]): RunTransition {
  if (s.auto === 'phase' && s.stepsRun >= 1 && step.phase !== s.firstPhase) {
    return end(s, [set('paused', autoProgressReason({ kind: 'phase', phase: s.firstPhase ?? null, nextPhase: step.phase ?? null }), 'auto_progress_phase')]);
  }
  const firstPhase = s.stepsRun === 0 ? step.phase : s.firstPhase;
  return {
    state: { ...s, pending: rest, firstPhase, stepsRun: s.stepsRun + 1, lastRun: step, current: step },
    commands: [{ kind: 'runStep', step }],
  };
}

function stepFinished(s: RunMachineState, e: Extract<RunEvent, { type: 'stepFinished' }>): RunTransition {
  const step = s.current;
  if (!step) throw new Error(`run ${s.runId}: a step finished while none was running`);
  const o = e.outcome;
  switch (o.kind) {
    case 'done':
      return advance({ ...s, current: null });
    case 'stopped': {
      // The step is no longer running: back to pending (its attempts stay as history); a resume runs it again.
      const commands: RunCommand[] = e.leaseLost ? [] : [{ kind: 'setStepStatus', index: step.index, status: 'pending' }];
      commands.push(
        e.userStop
          ? set(
              'cancelled',
              `Stopped by you ${o.reason.replace(/^stopped /, '')}. The work in progress stays in the worktree; resume to continue, or start again.`,
              'stopped_by_user',
              { finished: true },
            )
          : set('paused', `${o.reason}. The worktree keeps the work in progress.`, 'process_stopped'),
      );
      return end(s, commands);
    }
    case 'escalate':
      return end(s, [
        set('paused', runEndReason(o, '', { runId: s.runId, committedSteps: e.committedSteps }), 'step_needs_you'),
        { kind: 'notifyNeedsYou', step, what: 'escalated', extra: { attempts: o.attempts, maxAttempts: o.maxAttempts } },
      ]);
    case 'parked':
      return end(s, [set('waiting', `${o.reason} (until ${o.wakeAt})`, 'retry_parked', { wakeAt: o.wakeAt })]);
    case 'budget': {
      const code = o.budget === 'task' ? 'task_budget' : 'daily_budget';
      return end(s, [
        o.wakeAt ? set('waiting', o.reason, code, { wakeAt: o.wakeAt }) : set('paused', o.reason, code),
        { kind: 'notifyNeedsYou', step, what: code, extra: { wakeAt: o.wakeAt } },
      ]);
    }
    case 'fatal':
      // Nothing of an attempt that tried to steer Ratchet's git is kept, not even as a rescue commit.
      if (o.errorClass === 'sandbox_violation')
        return failStep(s, { step, outcome: o, committedSteps: e.committedSteps }, '', [{ kind: 'setStepStatus', index: step.index, status: 'failed' }]);
      return {
        state: { ...s, failing: { step, outcome: o, committedSteps: e.committedSteps } },
        commands: [
          { kind: 'setStepStatus', index: step.index, status: 'failed' },
          { kind: 'rescue', step, errorClass: o.errorClass },
        ],
      };
  }
}

function failStep(s: RunMachineState, f: NonNullable<RunMachineState['failing']>, rescued: string, before: RunCommand[] = []): RunTransition {
  return end({ ...s, failing: null }, [
    ...before,
    set('failed', runEndReason(f.outcome, rescued, { runId: s.runId, committedSteps: f.committedSteps }), 'step_failed', { finished: true }),
    { kind: 'notifyFailed', step: f.step, attempts: f.outcome.attempts ?? null, maxAttempts: f.outcome.maxAttempts ?? null, cause: f.outcome.errorClass },
  ]);
}

export function nextRun(s: RunMachineState, e: RunEvent, _now: Date): RunTransition {
  if (s.ended) {
    // The run's status is decided: a throw after that (reading the status document) changes nothing of it.
    if (e.type === 'crashed') return { state: s, commands: [] };
    throw new Error(`run ${s.runId}: event ${e.type} after the run loop ended`);
  }
  switch (e.type) {
    case 'reconciled':
      // Git already holds every step (a crash after the last commit): nothing to run.
      if (e.allDone) return end(s, [set('succeeded', null, null, { finished: true })]);
      return { state: { ...s, status: 'running' }, commands: [set('running', null, null), { kind: 'keepState' }, { kind: 'prepare' }] };
    case 'prepared':
      if (e.ready === 'stopped') {
        // A process that lost the lease no longer decides the run's status.
        if (e.leaseLost) return end(s, []);
        return end(s, [
          set(
            e.userStop ? 'cancelled' : 'paused',
            'Stopped while the worktree was being made ready (setup or the baseline check); resume to continue.',
            e.userStop ? 'stopped_by_user' : 'process_stopped',
            { finished: e.userStop },
          ),
        ]);
      }
      if (e.ready === 'failed')
        return end(s, [
          set('failed', e.reason, 'environment_failed', { finished: true }),
          { kind: 'notifyFailed', step: null, attempts: null, maxAttempts: null, cause: 'environment' },
        ]);
      return advance({ ...s, pending: e.pending, total: e.total });
    case 'answered': {
      const step = s.current;
      if (!step || !s.lastRun) throw new Error(`run ${s.runId}: an answer came while nothing was asked`);
      const rest = s.pending.slice(1);
      if (e.answer === 'no')
        return end(s, [set('paused', `Paused after step ${s.lastRun.index} at your request; resume to continue with step ${step.index}.`, 'paused_by_user')]);
      if (e.answer === 'auto') return startStep({ ...s, auto: 'phase', firstPhase: s.lastRun.phase }, step, rest);
      return startStep(s, step, rest);
    }
    case 'stepFinished':
      return stepFinished(s, e);
    case 'rescued':
      if (!s.failing) throw new Error(`run ${s.runId}: a rescue commit came for no failed step`);
      return failStep(s, s.failing, e.note);
    case 'crashed':
      return end(s, [
        set('failed', `Internal error: ${e.message}`, 'internal_error', { finished: true }),
        { kind: 'notifyFailed', step: s.lastRun, attempts: null, maxAttempts: null, cause: 'internal' },
      ]);
    case 'baseChecked':
      // Every step passed, but the conflict the agent was asked to resolve is still there: not a success (no success notice).
      if (!e.conflicts.length) return succeed(s);
      return end(s, [
        set(
          'paused',
          `Every step passed, but this branch still conflicts with ${e.baseBranch} in: ${e.conflicts.join(', ')}. Resolve those files in the worktree (or merge ${e.baseBranch} into the branch yourself), then resume.`,
          'step_needs_you',
        ),
      ]);
  }
}

/** What happens to a run outside the run loop's own events; each site that sees one asks runLife for the run's status. */
export type RunLifeEvent =
  /** Another run's 429 holds the API key this run uses until `until` (`holdRunId`: the run that was limited, null if unknown). */
  | { type: 'apiHoldStarted'; until: string; holdReason: string; holdRunId: string | null }
  /** The hold is over (or the user's "Retry now" went past it): the step goes on. */
  | { type: 'apiHoldEnded' }
  /** The step machine's backoff before its next attempt. */
  | { type: 'backoffStarted'; reason: string; wakeAt: string }
  | { type: 'backoffEnded' }
  /** The agent drafted the plan and the workflow asks for approval before anything runs. */
  | { type: 'planDrafted' }
  | { type: 'planApproved' }
  /** Nobody holds the run any more (its process died, or its lease ran out); `lastSeen` is its last heartbeat. */
  | { type: 'processLost'; lastSeen: string | null }
  /** The user's Stop of a run that no process here executes, as it stands (`status`). */
  | { type: 'stopRequested'; status: RunStatus }
  /** Into the queue (`reason`: what it waits for); out of it to start (back to `previous`); taken out unstarted by the user. */
  | { type: 'queued'; reason: string }
  | { type: 'dequeued'; previous: RunStatus }
  | { type: 'removedFromQueue'; action: 'execute' | 'retry' | 'resume' | 'review'; previous: RunStatus };

/** The run's status for an event outside the run loop: pure, so every wording and flag is decided here and tested without a store. */
export function runLife(runId: string, e: RunLifeEvent, _now: Date): RunStatusCommand[] {
  switch (e.type) {
    case 'apiHoldStarted': {
      const who = e.holdRunId === runId ? 'this run' : `run ${e.holdRunId ?? 'in another process'}`;
      return [
        set('waiting', `The API key is rate-limited until ${e.until} (${e.holdReason} on ${who}); every run using it waits.`, 'api_rate_limited', {
          wakeAt: e.until,
        }),
      ];
    }
    case 'backoffStarted':
      return [set('waiting', e.reason, 'retry_backoff', { wakeAt: e.wakeAt })];
    case 'apiHoldEnded':
    case 'backoffEnded':
      return [set('running', null, null)];
    case 'planDrafted':
      return [
        set(
          'waiting_approval',
          `The agent drafted this plan; nothing runs until you approve it (\`ratchet resume ${runId} --approve\`, or Approve in the app).`,
          'plan_awaiting_approval',
        ),
      ];
    case 'planApproved':
      return [set('paused', 'Plan approved; resume to start it.', 'plan_approved')];
    case 'processLost':
      return [set('interrupted', `The process running this run stopped during it (last seen ${e.lastSeen ?? 'never'}).`, 'process_lost')];
    case 'stopRequested':
      // A run parked until its wake time has no process to abort: the stop is its status. A queued one leaves the queue (removedFromQueue).
      return e.status === 'waiting'
        ? [set('cancelled', 'Stopped by you while it waited to retry. Resume to continue, or start again.', 'stopped_by_user', { finished: true })]
        : [];
    case 'queued':
      return [set('queued', e.reason, 'waiting_for_slot')];
    case 'dequeued':
      return [set(e.previous, 'Starting: its turn in the queue came.', 'queue_turn')];
    case 'removedFromQueue':
      // A run that never started has nothing to go back to.
      if (e.action === 'execute')
        return [set('cancelled', 'Stopped by you before it started (removed from the queue).', 'removed_from_queue', { finished: true })];
      return [set(e.previous, `Removed from the queue by you; the ${e.action} did not start.`, 'removed_from_queue')];
  }
}
