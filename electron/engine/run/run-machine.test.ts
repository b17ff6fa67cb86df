// The run's policies as the pure machine decides them: no git, no store, no server. Each test drives events and reads commands.
import { describe, expect, it } from 'vitest';
import { canChangeRunStatus } from '../store/run-transitions';
import { initialRunState, nextRun, runLife, type RunCommand, type RunEvent, type RunLifeEvent, type RunMachineState, type StepRef } from './run-machine';
import type { StepOutcome } from '../step/step-state';
import { runStarted, stepDone, stepFinished } from '../testing/run-fixtures';

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

const started = (pending: StepRef[] = [S1, S2, S3]): RunEvent[] => runStarted(pending);
const done = stepDone;
const finished = stepFinished;
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

  it('a continuation asked to resolve conflicts with the moved base checks the base before it succeeds: still conflicting, it pauses naming the files (no success notice); resolved, it succeeds', () => {
    const asked = initialRunState('r', { checkBase: true });
    const before = drive(asked, [...started([S1]), done()]);
    expect(statuses(before.commands)).toEqual(['running']);
    expect(before.commands.at(-1)).toEqual({ kind: 'checkBase' });
    expect(before.state.ended).toBe(false);
    const still = drive(before.state, [{ type: 'baseChecked', baseBranch: 'main', conflicts: ['a.txt', 'b.txt'] }], 'running');
    expect(still.commands.find((c) => c.kind === 'setStatus')).toMatchObject({
      status: 'paused',
      code: 'step_needs_you',
      reason: expect.stringContaining('still conflicts with main in: a.txt, b.txt'),
    });
    expect(kinds(still.commands)).not.toContain('notifySucceeded');
    expect(still.state.ended).toBe(true);
    const resolved = drive(before.state, [{ type: 'baseChecked', baseBranch: 'main', conflicts: [] }], 'running');
    expect(statuses(resolved.commands)).toEqual(['succeeded']);
    expect(kinds(resolved.commands)).toContain('notifySucceeded');
    // A run not asked about the base never looks at it.
    expect(kinds(drive(initialRunState('r'), [...started([S1]), done()]).commands)).not.toContain('checkBase');
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
    expect(yes.commands.find((c) => c.kind === 'setStatus' && c.status === 'paused')).toMatchObject({
      reason: 'Paused after step 2 at your request; resume to continue with step 3.',
    });
    const auto = drive(base, [...started(), done(), { type: 'answered', answer: 'auto' }, done()]);
    // The phase of the step just done ("a") runs to its end; step 3 is phase "b".
    expect(auto.commands.filter((c) => c.kind === 'runStep')).toHaveLength(2);
    expect(statuses(auto.commands).at(-1)).toBe('paused');
  });

  it("a stop: the user's cancels, any other pauses, the step goes back to pending; a lost lease writes nothing of the step", () => {
    const stopped: StepOutcome = { kind: 'stopped', reason: 'stopped during attempt 1' };
    const mine = drive(initialRunState('r'), [...started(), finished(stopped, { userStop: true })]);
    expect(mine.commands).toContainEqual({ kind: 'setStepStatus', index: 1, status: 'pending' });
    expect(mine.commands.find((c) => c.kind === 'setStatus' && c.status === 'cancelled')).toMatchObject({
      reason: expect.stringMatching(/^Stopped by you during attempt 1\./),
      finished: true,
    });
    const other = drive(initialRunState('r'), [...started(), finished(stopped)]);
    expect(statuses(other.commands).at(-1)).toBe('paused');
    const lost = drive(initialRunState('r'), [...started(), finished(stopped, { leaseLost: true })]);
    expect(lost.commands.some((c) => c.kind === 'setStepStatus')).toBe(false);
    // Stopped while the worktree was being made ready: a lost lease decides nothing at all.
    const prep = drive(initialRunState('r'), [
      { type: 'reconciled', allDone: false },
      { type: 'prepared', ready: 'stopped', userStop: false, leaseLost: true },
    ]);
    expect(statuses(prep.commands)).toEqual(['running']);
    const prepMine = drive(initialRunState('r'), [
      { type: 'reconciled', allDone: false },
      { type: 'prepared', ready: 'stopped', userStop: true, leaseLost: false },
    ]);
    expect(prepMine.commands.find((c) => c.kind === 'setStatus' && c.status === 'cancelled')).toMatchObject({ finished: true });
  });

  it('budget: a daily budget waits until its wake time, a task budget pauses; both tell the user', () => {
    const daily = drive(initialRunState('r'), [
      ...started(),
      finished({ kind: 'budget', budget: 'daily', reason: 'daily budget reached', wakeAt: '2026-01-02T00:00:00Z' }),
    ]);
    expect(daily.commands.find((c) => c.kind === 'setStatus' && c.status === 'waiting')).toMatchObject({ wakeAt: '2026-01-02T00:00:00Z' });
    expect(daily.commands).toContainEqual(expect.objectContaining({ kind: 'notifyNeedsYou', what: 'daily_budget' }));
    const task = drive(initialRunState('r'), [...started(), finished({ kind: 'budget', budget: 'task', reason: 'task budget reached', wakeAt: null })]);
    expect(statuses(task.commands).at(-1)).toBe('paused');
    expect(task.commands).toContainEqual(expect.objectContaining({ kind: 'notifyNeedsYou', what: 'task_budget' }));
  });

  it('parks a rate-limited run until its wake time, and pauses an escalated one', () => {
    const parked = drive(initialRunState('r'), [...started(), finished({ kind: 'parked', reason: 'rate limited', wakeAt: '2026-01-01T01:00:00Z' })]);
    expect(parked.commands.find((c) => c.kind === 'setStatus' && c.status === 'waiting')).toMatchObject({
      reason: 'rate limited (until 2026-01-01T01:00:00Z)',
    });
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
    expect(after.commands[0]).toMatchObject({
      kind: 'setStatus',
      status: 'failed',
      finished: true,
      reason: expect.stringContaining('Kept in rescue commit abc.'),
    });
    expect(after.commands[1]).toMatchObject({ kind: 'notifyFailed', attempts: 2, maxAttempts: 2, cause: 'test_failure' });
    const sv = drive(initialRunState('r'), [...started(), finished({ ...fatal, errorClass: 'sandbox_violation' })]);
    expect(sv.commands.some((c) => c.kind === 'rescue')).toBe(false);
    expect(statuses(sv.commands).at(-1)).toBe('failed');
  });

  it('an environment that cannot be made ready fails the run; a crash fails it as internal, once', () => {
    const env = drive(initialRunState('r'), [
      { type: 'reconciled', allDone: false },
      { type: 'prepared', ready: 'failed', reason: 'setup failed' },
    ]);
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

describe('the run machine, outside the run loop', () => {
  const life = (e: RunLifeEvent, runId = 'r1') => runLife(runId, e, NOW);

  it('a wait inside a step: the API key’s hold and a retry’s backoff make the run wait until their time, then run again', () => {
    expect(life({ type: 'apiHoldStarted', until: '2026-01-01T00:05:00Z', holdReason: 'rate limited (429) with retry-after 300 s', holdRunId: 'r2' })).toEqual([
      {
        kind: 'setStatus',
        status: 'waiting',
        reason: 'The API key is rate-limited until 2026-01-01T00:05:00Z (rate limited (429) with retry-after 300 s on run r2); every run using it waits.',
        code: 'api_rate_limited',
        wakeAt: '2026-01-01T00:05:00Z',
      },
    ]);
    expect(life({ type: 'apiHoldStarted', until: 'T', holdReason: 'x', holdRunId: null })[0]?.reason).toContain('(x on run in another process)');
    expect(life({ type: 'apiHoldStarted', until: 'T', holdReason: 'x', holdRunId: 'r1' })[0]?.reason).toContain('(x on this run)');
    expect(life({ type: 'apiHoldEnded' })).toEqual([{ kind: 'setStatus', status: 'running', reason: null, code: null }]);
    expect(life({ type: 'backoffStarted', reason: 'gate failed; retrying in 4 s', wakeAt: '2026-01-01T00:00:04Z' })).toEqual([
      { kind: 'setStatus', status: 'waiting', reason: 'gate failed; retrying in 4 s', code: 'retry_backoff', wakeAt: '2026-01-01T00:00:04Z' },
    ]);
    expect(life({ type: 'backoffEnded' })).toEqual([{ kind: 'setStatus', status: 'running', reason: null, code: null }]);
  });

  it('a drafted plan waits for approval (naming how to give it); an approved one is paused until resumed', () => {
    expect(life({ type: 'planDrafted' }, 'abc')).toEqual([
      {
        kind: 'setStatus',
        status: 'waiting_approval',
        reason: 'The agent drafted this plan; nothing runs until you approve it (`ratchet resume abc --approve`, or Approve in the app).',
        code: 'plan_awaiting_approval',
      },
    ]);
    expect(life({ type: 'planApproved' })).toEqual([
      { kind: 'setStatus', status: 'paused', reason: 'Plan approved; resume to start it.', code: 'plan_approved' },
    ]);
  });

  it('a run whose process is gone is interrupted, saying when it was last seen', () => {
    expect(life({ type: 'processLost', lastSeen: '2026-01-01T00:00:00Z' })).toEqual([
      {
        kind: 'setStatus',
        status: 'interrupted',
        reason: 'The process running this run stopped during it (last seen 2026-01-01T00:00:00Z).',
        code: 'process_lost',
      },
    ]);
    expect(life({ type: 'processLost', lastSeen: null })[0]?.reason).toBe('The process running this run stopped during it (last seen never).');
  });

  it('the user’s stop of a run no process executes: one waiting to retry is cancelled; any other is left as it is', () => {
    expect(life({ type: 'stopRequested', status: 'waiting' })).toEqual([
      {
        kind: 'setStatus',
        status: 'cancelled',
        reason: 'Stopped by you while it waited to retry. Resume to continue, or start again.',
        code: 'stopped_by_user',
        finished: true,
      },
    ]);
    for (const status of ['paused', 'failed', 'succeeded', 'interrupted', 'running'] as const) expect(life({ type: 'stopRequested', status })).toEqual([]);
  });

  it('the queue: a queued run says why, goes back to what it was when its turn comes, and leaving unstarted is cancelled only if it never ran', () => {
    expect(life({ type: 'queued', reason: 'Waiting for a free slot.' })).toEqual([
      { kind: 'setStatus', status: 'queued', reason: 'Waiting for a free slot.', code: 'waiting_for_slot' },
    ]);
    expect(life({ type: 'dequeued', previous: 'failed' })).toEqual([
      { kind: 'setStatus', status: 'failed', reason: 'Starting: its turn in the queue came.', code: 'queue_turn' },
    ]);
    expect(life({ type: 'removedFromQueue', action: 'execute', previous: 'planning' })).toEqual([
      {
        kind: 'setStatus',
        status: 'cancelled',
        reason: 'Stopped by you before it started (removed from the queue).',
        code: 'removed_from_queue',
        finished: true,
      },
    ]);
    expect(life({ type: 'removedFromQueue', action: 'resume', previous: 'paused' })).toEqual([
      { kind: 'setStatus', status: 'paused', reason: 'Removed from the queue by you; the resume did not start.', code: 'removed_from_queue' },
    ]);
  });

  it('every status it decides is one the table allows from where the run stands', () => {
    const cases: Array<[Parameters<typeof canChangeRunStatus>[0], RunLifeEvent]> = [
      ['running', { type: 'apiHoldStarted', until: 'T', holdReason: 'x', holdRunId: 'r2' }],
      ['waiting', { type: 'apiHoldEnded' }],
      ['running', { type: 'backoffStarted', reason: 'x', wakeAt: 'T' }],
      ['waiting', { type: 'backoffEnded' }],
      ['planning', { type: 'planDrafted' }],
      ['waiting_approval', { type: 'planApproved' }],
      ['running', { type: 'processLost', lastSeen: null }],
      ['waiting', { type: 'processLost', lastSeen: null }],
      ['planning', { type: 'processLost', lastSeen: null }],
      ['waiting', { type: 'stopRequested', status: 'waiting' }],
      ['paused', { type: 'queued', reason: 'x' }],
      ['succeeded', { type: 'queued', reason: 'x' }],
      ['queued', { type: 'dequeued', previous: 'waiting_approval' }],
      ['queued', { type: 'removedFromQueue', action: 'execute', previous: 'planning' }],
      ['queued', { type: 'removedFromQueue', action: 'retry', previous: 'failed' }],
    ];
    for (const [from, e] of cases) for (const c of life(e)) expect(canChangeRunStatus(from, c.status), `${e.type}: ${from} → ${c.status}`).toBe(true);
  });
});
