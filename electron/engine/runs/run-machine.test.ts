// The run's policies as the pure machine decides them: no git, no store, no server. Each test drives events and reads commands.
import { describe, expect, it } from 'vitest';
import { canChangeRunStatus } from './run-transitions';
import { initialRunState, nextRun, type RunCommand, type RunEvent, type RunMachineState, type StepRef } from './run-machine';
import type { StepOutcome } from './step-state';

const NOW = new Date('2026-01-01T00:00:00Z');
const S1: StepRef = { index: 1, title: 'one', phase: 'a' };
const S2: StepRef = { index: 2, title: 'two', phase: 'a' };
const S3: StepRef = { index: 3, title: 'three', phase: 'b' };

/** Feeds events in order; returns every command and the final state, checking each status change against the table. */
function drive(state: RunMachineState, events: RunEvent[], from: 'paused' | 'running' = 'paused'): { state: RunMachineState; commands: RunCommand[] } {
  const commands: RunCommand[] = [];
  let status: string = from;
  for (const e of events) {
    const t = nextRun(state, e, NOW);
    for (const c of t.commands) {
      if (c.kind === 'setStatus') {
        expect(canChangeRunStatus(status as never, c.status), `${status} → ${c.status}`).toBe(true);
        status = c.status;
      }
    }
    commands.push(...t.commands);
    state = t.state;
  }
  return { state, commands };
}

const started = (pending: StepRef[] = [S1, S2, S3]): RunEvent[] => [
  { type: 'reconciled', allDone: false },
  { type: 'prepared', ready: 'ready', pending, total: pending.length },
];
const done = (sha = 'c'): RunEvent => ({ type: 'stepFinished', outcome: { kind: 'done', commit: sha }, userStop: false, leaseLost: false, committedSteps: 1 });
const finished = (outcome: StepOutcome, over: Partial<Extract<RunEvent, { type: 'stepFinished' }>> = {}): RunEvent => ({ type: 'stepFinished', outcome, userStop: false, leaseLost: false, committedSteps: 1, ...over });
const statuses = (cs: RunCommand[]) => cs.filter((c) => c.kind === 'setStatus').map((c) => (c as Extract<RunCommand, { kind: 'setStatus' }>).status);
const kinds = (cs: RunCommand[]) => cs.map((c) => c.kind);

describe('the run machine', () => {
  it('runs every step in order and succeeds; a run git already holds whole succeeds without running', () => {
    const r = drive(initialRunState('r'), [...started(), done(), done(), done()]);
    expect(r.commands.filter((c) => c.kind === 'runStep').map((c) => (c as { step: StepRef }).step.index)).toEqual([1, 2, 3]);
    expect(statuses(r.commands)).toEqual(['running', 'succeeded']);
    expect(r.commands.at(-2)).toEqual({ kind: 'notifySucceeded' });
    expect(r.state.ended).toBe(true);
    const whole = drive(initialRunState('r'), [{ type: 'reconciled', allDone: true }]);
    expect(kinds(whole.commands)).toEqual(['setStatus', 'end']);
    expect(statuses(whole.commands)).toEqual(['succeeded']);
  });

  it('auto-progress by step pauses after one step, naming the next', () => {
    const r = drive(initialRunState('r', { auto: 'step' }), [...started(), done()]);
    expect(statuses(r.commands)).toEqual(['running', 'paused']);
    expect(r.commands.find((c) => c.kind === 'setStatus' && c.status === 'paused')).toMatchObject({ reason: expect.stringContaining('continue with step 2') });
  });

  it('auto-progress by phase runs the phase to its end, then pauses before the next phase', () => {
    const r = drive(initialRunState('r', { auto: 'phase' }), [...started(), done(), done()]);
    expect(r.commands.filter((c) => c.kind === 'runStep')).toHaveLength(2);
    expect(r.commands.find((c) => c.kind === 'setStatus' && c.status === 'paused')).toMatchObject({ reason: expect.stringContaining('phase "b"') });
  });

  it('interactive auto-progress asks after each step: yes goes on, auto runs the phase, no pauses', () => {
    const base = initialRunState('r', { auto: 'step', interactive: true });
    const yes = drive(base, [...started(), done(), { type: 'answered', answer: 'yes' }, done(), { type: 'answered', answer: 'no' }]);
    expect(yes.commands.filter((c) => c.kind === 'ask')).toHaveLength(2);
    expect(yes.commands.filter((c) => c.kind === 'forgetHead')).toHaveLength(2);
    expect(yes.commands.find((c) => c.kind === 'setStatus' && c.status === 'paused')).toMatchObject({ reason: 'Paused after step 2 at your request; resume to continue with step 3.' });
    const auto = drive(base, [...started(), done(), { type: 'answered', answer: 'auto' }, done()]);
    // The phase of the step just done ("a") runs to its end; step 3 is phase "b".
    expect(auto.commands.filter((c) => c.kind === 'runStep')).toHaveLength(2);
    expect(statuses(auto.commands).at(-1)).toBe('paused');
  });

  it("a stop: the user's cancels, any other pauses, the step goes back to pending; a lost lease writes nothing of the step", () => {
    const stopped: StepOutcome = { kind: 'stopped', reason: 'stopped during attempt 1' };
    const mine = drive(initialRunState('r'), [...started(), finished(stopped, { userStop: true })]);
    expect(mine.commands).toContainEqual({ kind: 'setStepStatus', index: 1, status: 'pending' });
    expect(mine.commands.find((c) => c.kind === 'setStatus' && c.status === 'cancelled')).toMatchObject({ reason: expect.stringMatching(/^Stopped by you during attempt 1\./), finished: true });
    const other = drive(initialRunState('r'), [...started(), finished(stopped)]);
    expect(statuses(other.commands).at(-1)).toBe('paused');
    const lost = drive(initialRunState('r'), [...started(), finished(stopped, { leaseLost: true })]);
    expect(lost.commands.some((c) => c.kind === 'setStepStatus')).toBe(false);
    // Stopped while the worktree was being made ready: a lost lease decides nothing at all.
    const prep = drive(initialRunState('r'), [{ type: 'reconciled', allDone: false }, { type: 'prepared', ready: 'stopped', userStop: false, leaseLost: true }]);
    expect(statuses(prep.commands)).toEqual(['running']);
    const prepMine = drive(initialRunState('r'), [{ type: 'reconciled', allDone: false }, { type: 'prepared', ready: 'stopped', userStop: true, leaseLost: false }]);
    expect(prepMine.commands.find((c) => c.kind === 'setStatus' && c.status === 'cancelled')).toMatchObject({ finished: true });
  });

  it('budget: a daily budget waits until its wake time, a task budget pauses; both tell the user', () => {
    const daily = drive(initialRunState('r'), [...started(), finished({ kind: 'budget', budget: 'daily', reason: 'daily budget reached', wakeAt: '2026-01-02T00:00:00Z' })]);
    expect(daily.commands.find((c) => c.kind === 'setStatus' && c.status === 'waiting')).toMatchObject({ wakeAt: '2026-01-02T00:00:00Z' });
    expect(daily.commands).toContainEqual(expect.objectContaining({ kind: 'notifyNeedsYou', what: 'daily_budget' }));
    const task = drive(initialRunState('r'), [...started(), finished({ kind: 'budget', budget: 'task', reason: 'task budget reached', wakeAt: null })]);
    expect(statuses(task.commands).at(-1)).toBe('paused');
    expect(task.commands).toContainEqual(expect.objectContaining({ kind: 'notifyNeedsYou', what: 'task_budget' }));
  });

  it('parks a rate-limited run until its wake time, and pauses an escalated one', () => {
    const parked = drive(initialRunState('r'), [...started(), finished({ kind: 'parked', reason: 'rate limited', wakeAt: '2026-01-01T01:00:00Z' })]);
    expect(parked.commands.find((c) => c.kind === 'setStatus' && c.status === 'waiting')).toMatchObject({ reason: 'rate limited (until 2026-01-01T01:00:00Z)' });
    const esc = drive(initialRunState('r'), [...started(), finished({ kind: 'escalate', reason: 'same failure', summary: '', attempts: 3, maxAttempts: 5 })]);
    expect(statuses(esc.commands).at(-1)).toBe('paused');
    expect(esc.commands).toContainEqual(expect.objectContaining({ kind: 'notifyNeedsYou', what: 'escalated', extra: { attempts: 3, maxAttempts: 5 } }));
  });

  it('a step that fails for good: the step fails, its work is rescued, then the run fails naming the rescue; a sandbox violation is never rescued', () => {
    const fatal: StepOutcome = { kind: 'fatal', reason: 'tests fail', summary: '', errorClass: 'test_failure', attempts: 2, maxAttempts: 2 };
    const r = drive(initialRunState('r'), [...started(), finished(fatal)]);
    expect(kinds(r.commands).slice(-2)).toEqual(['setStepStatus', 'rescue']);
    expect(r.state.ended).toBe(false);
    const after = drive(r.state, [{ type: 'rescued', note: ' Kept in rescue commit abc.' }], 'running');
    expect(after.commands[0]).toMatchObject({ kind: 'setStatus', status: 'failed', finished: true, reason: expect.stringContaining('Kept in rescue commit abc.') });
    expect(after.commands[1]).toMatchObject({ kind: 'notifyFailed', attempts: 2, maxAttempts: 2, cause: 'test_failure' });
    const sv = drive(initialRunState('r'), [...started(), finished({ ...fatal, errorClass: 'sandbox_violation' })]);
    expect(sv.commands.some((c) => c.kind === 'rescue')).toBe(false);
    expect(statuses(sv.commands).at(-1)).toBe('failed');
  });

  it('an environment that cannot be made ready fails the run; a crash fails it as internal, once', () => {
    const env = drive(initialRunState('r'), [{ type: 'reconciled', allDone: false }, { type: 'prepared', ready: 'failed', reason: 'setup failed' }]);
    expect(env.commands).toContainEqual(expect.objectContaining({ kind: 'notifyFailed', cause: 'environment' }));
    const crash = drive(initialRunState('r'), [...started(), { type: 'crashed', message: 'boom' }]);
    expect(crash.commands.find((c) => c.kind === 'setStatus' && c.status === 'failed')).toMatchObject({ reason: 'Internal error: boom' });
    expect(nextRun(crash.state, { type: 'crashed', message: 'again' }, NOW).commands).toEqual([]);
  });

  it('is pure: the same state and event give the same transition, and the state given is not changed', () => {
    const s = drive(initialRunState('r', { auto: 'phase' }), started()).state;
    const frozen = JSON.stringify(s);
    const a = nextRun(s, done(), NOW);
    const b = nextRun(s, done(), NOW);
    expect(a).toEqual(b);
    expect(JSON.stringify(s)).toBe(frozen);
  });
});
