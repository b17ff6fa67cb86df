// The reason code the run machine gives with every status it sets: pure, no git, no store. The app decides by the code
// (which budget stopped a run, which actions its page suggests), never by the reason's words.
import { describe, expect, it } from 'vitest';
import type { RunReasonCode, RunStatus } from '../../../shared/domain';
import { initialRunState, nextRun, runLife, type RunCommand, type RunEvent, type RunLifeEvent, type RunMachineState, type StepRef } from './run-machine';
import type { StepOutcome } from '../step/step-state';
import { runStarted, stepDone, stepFinished } from '../testing/run-fixtures';

const NOW = new Date('2026-01-01T00:00:00Z');
const S1: StepRef = { index: 1, title: 'one', phase: 'a' };
const S2: StepRef = { index: 2, title: 'two', phase: 'b' };

/** Every status the machine sets for these events, with its code, in order. */
function codes(events: RunEvent[], state: RunMachineState = initialRunState('r')): Array<[RunStatus, RunReasonCode | null]> {
  const out: Array<[RunStatus, RunReasonCode | null]> = [];
  for (const e of events) {
    const t = nextRun(state, e, NOW);
    for (const c of t.commands as RunCommand[]) if (c.kind === 'setStatus') out.push([c.status, c.code]);
    state = t.state;
  }
  return out;
}
const started = runStarted([S1, S2]);
const done = stepDone();
const finished = stepFinished;
const fatal: StepOutcome = { kind: 'fatal', reason: 'tests fail', summary: '', errorClass: 'test_failure', attempts: 2, maxAttempts: 2 };

describe('the run machine’s reason codes', () => {
  it('running and succeeded need no reason and carry no code', () => {
    expect(codes([...started, done, done])).toEqual([
      ['running', null],
      ['succeeded', null],
    ]);
    expect(codes([{ type: 'reconciled', allDone: true }])).toEqual([['succeeded', null]]);
  });

  it('budgets: the task budget pauses with task_budget, the daily one waits with daily_budget', () => {
    expect(codes([...started, finished({ kind: 'budget', budget: 'task', reason: 'anything at all', wakeAt: null })]).at(-1)).toEqual([
      'paused',
      'task_budget',
    ]);
    expect(codes([...started, finished({ kind: 'budget', budget: 'daily', reason: 'anything at all', wakeAt: 'T' })]).at(-1)).toEqual([
      'waiting',
      'daily_budget',
    ]);
  });

  it('a step that needs you, one that failed for good (rescued or a sandbox violation), a parked retry', () => {
    expect(codes([...started, finished({ kind: 'escalate', reason: 'x', summary: '' })]).at(-1)).toEqual(['paused', 'step_needs_you']);
    const failing = nextRun(nextRun(nextRun(initialRunState('r'), started[0]!, NOW).state, started[1]!, NOW).state, finished(fatal), NOW).state;
    expect(codes([{ type: 'rescued', note: '' }], failing)).toEqual([['failed', 'step_failed']]);
    expect(codes([...started, finished({ ...fatal, errorClass: 'sandbox_violation' })]).at(-1)).toEqual(['failed', 'step_failed']);
    expect(codes([...started, finished({ kind: 'parked', reason: 'rate limited', wakeAt: 'T' })]).at(-1)).toEqual(['waiting', 'retry_parked']);
  });

  it('stops: the user’s cancels with stopped_by_user, any other pauses with process_stopped (in a step or while preparing)', () => {
    const stopped: StepOutcome = { kind: 'stopped', reason: 'stopped during step 1' };
    expect(codes([...started, finished(stopped, { userStop: true })]).at(-1)).toEqual(['cancelled', 'stopped_by_user']);
    expect(codes([...started, finished(stopped)]).at(-1)).toEqual(['paused', 'process_stopped']);
    const prep = (userStop: boolean): RunEvent[] => [started[0]!, { type: 'prepared', ready: 'stopped', userStop, leaseLost: false }];
    expect(codes(prep(true)).at(-1)).toEqual(['cancelled', 'stopped_by_user']);
    expect(codes(prep(false)).at(-1)).toEqual(['paused', 'process_stopped']);
  });

  it('auto-progress pauses, the user’s “no”, an environment that cannot be made ready, a crash', () => {
    expect(codes([...started, done], initialRunState('r', { auto: 'step' })).at(-1)).toEqual(['paused', 'auto_progress_step']);
    expect(codes([...started, done], initialRunState('r', { auto: 'phase' })).at(-1)).toEqual(['paused', 'auto_progress_phase']);
    const asked = codes([...started, done, { type: 'answered', answer: 'no' }], initialRunState('r', { auto: 'step', interactive: true }));
    expect(asked.at(-1)).toEqual(['paused', 'paused_by_user']);
    expect(codes([started[0]!, { type: 'prepared', ready: 'failed', reason: 'setup failed' }]).at(-1)).toEqual(['failed', 'environment_failed']);
    expect(codes([...started, { type: 'crashed', message: 'boom' }]).at(-1)).toEqual(['failed', 'internal_error']);
  });

  it('outside the run loop: holds, backoffs, approval, a lost process, a stop while waiting, the queue', () => {
    const life = (e: RunLifeEvent) => runLife('r', e, NOW).map((c) => [c.status, c.code]);
    const cases: Array<[RunLifeEvent, Array<[RunStatus, RunReasonCode | null]>]> = [
      [{ type: 'apiHoldStarted', until: 'T', holdReason: 'x', holdRunId: null }, [['waiting', 'api_rate_limited']]],
      [{ type: 'apiHoldEnded' }, [['running', null]]],
      [{ type: 'backoffStarted', reason: 'x', wakeAt: 'T' }, [['waiting', 'retry_backoff']]],
      [{ type: 'backoffEnded' }, [['running', null]]],
      [{ type: 'planDrafted' }, [['waiting_approval', 'plan_awaiting_approval']]],
      [{ type: 'planApproved' }, [['paused', 'plan_approved']]],
      [{ type: 'processLost', lastSeen: null }, [['interrupted', 'process_lost']]],
      [{ type: 'stopRequested', status: 'waiting' }, [['cancelled', 'stopped_by_user']]],
      [{ type: 'queued', reason: 'x' }, [['queued', 'waiting_for_slot']]],
      [{ type: 'dequeued', previous: 'failed' }, [['failed', 'queue_turn']]],
      [{ type: 'removedFromQueue', action: 'execute', previous: 'planning' }, [['cancelled', 'removed_from_queue']]],
      [{ type: 'removedFromQueue', action: 'retry', previous: 'failed' }, [['failed', 'removed_from_queue']]],
    ];
    for (const [e, want] of cases) expect(life(e), e.type).toEqual(want);
  });
});
