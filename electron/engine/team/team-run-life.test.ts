// One run life whoever drives it: the team workflow's decisions (team-run-life.ts, fed each durable step's answer) are
// the local run machine's for the same events — a table over both, for a step's success, a failure with retries left,
// an exhausted step, a budget's pause and a stop.
import { describe, expect, it } from 'vitest';
import { initialRunState, nextRun, type RunCommand, type RunEvent, type StepRef } from '../run/run-machine';
import type { StepOutcome } from '../step/step-state';
import { runStarted, stepDone, stepFinished } from '../testing/run-fixtures';
import { goesOn, teamAfterStep, teamStart, type StepAnswer, type TeamMove, type TeamStatus } from './team-run-life';

const S1: StepRef = { index: 1, title: 'one', phase: null };
const S2: StepRef = { index: 2, title: 'two', phase: null };
const STEPS = [S1, S2];
const WAKE = '2026-12-07T12:00:00.000Z';

const fatal: StepOutcome = { kind: 'fatal', reason: 'gates failed 3 times', summary: 's', errorClass: 'test_failure', attempts: 3, maxAttempts: 3 };
const escalate: StepOutcome = { kind: 'escalate', reason: 'the same failure twice', summary: 's', attempts: 2, maxAttempts: 3 };

/** Each durable step's outcome (the events its worker's run machine was told), per case. */
const CASES: Array<{ name: string; steps: RunEvent[][]; team: TeamMove['kind'][] }> = [
  { name: 'every step succeeds', steps: [[stepDone('a')], [stepDone('b')]], team: ['step', 'step', 'end'] },
  {
    name: 'a failure with retries left parks the step, which goes on when it wakes',
    steps: [[stepFinished({ kind: 'parked', reason: 'retry 2 of 3 waits', wakeAt: WAKE })], [stepDone('a')], [stepDone('b')]],
    team: ['step', 'sleep', 'step', 'step', 'end'],
  },
  {
    name: 'an exhausted step fails the run, its rescue commit named',
    steps: [[stepDone('a')], [stepFinished(fatal, { committedSteps: 1 }), { type: 'rescued', note: ' Kept in rescue commit abc.' }]],
    team: ['step', 'step', 'end'],
  },
  { name: 'a step that needs you pauses the run', steps: [[stepFinished(escalate)]], team: ['step', 'end'] },
  {
    name: 'the task budget pauses the run',
    steps: [[stepFinished({ kind: 'budget', budget: 'task', reason: 'task budget spent', wakeAt: null })]],
    team: ['step', 'end'],
  },
  {
    name: "the day's budget waits until the day renews",
    steps: [[stepFinished({ kind: 'budget', budget: 'daily', reason: 'daily budget spent', wakeAt: WAKE })], [stepDone('a')], [stepDone('b')]],
    team: ['step', 'sleep', 'step', 'step', 'end'],
  },
  {
    name: "the user's stop cancels",
    steps: [[stepFinished({ kind: 'stopped', reason: 'stopped during attempt 1' }, { userStop: true })]],
    team: ['step', 'end'],
  },
  { name: 'any other stop pauses', steps: [[stepFinished({ kind: 'stopped', reason: 'stopped during attempt 1' })]], team: ['step', 'end'] },
  { name: 'a worker that could not run it fails the run', steps: [[{ type: 'crashed', message: 'no clone' }]], team: ['step', 'end'] },
];

const statusOf = (cs: RunCommand[]): TeamStatus[] =>
  cs.flatMap((c) => (c.kind === 'setStatus' ? [{ status: c.status, reason: c.reason, reason_code: c.code }] : []));

/** The local run: one run loop with `auto: 'run'`, and after a parked end the scheduler's resume (a new loop). */
function local(steps: RunEvent[][]): TeamStatus[] {
  const out: TeamStatus[] = [];
  let pending = STEPS;
  let state = initialRunState('r', { auto: 'run' });
  const feed = (events: RunEvent[]) => {
    for (const e of events) {
      if (state.ended) break;
      const t = nextRun(state, e, new Date(0));
      state = t.state;
      out.push(...statusOf(t.commands));
    }
  };
  feed(runStarted(pending));
  for (const events of steps) {
    if (state.ended) {
      // Woken: the run loop begins again with the steps left.
      state = initialRunState('r', { auto: 'run' });
      feed(runStarted(pending));
    }
    feed(events);
    if (events.some((e) => e.type === 'stepFinished' && e.outcome.kind === 'done')) pending = pending.slice(1);
  }
  return out;
}

/** The team run: the workflow's turns over each durable step's answer, as team-workflow.ts carries them out. */
function team(steps: RunEvent[][]): { statuses: TeamStatus[]; moves: TeamMove['kind'][] } {
  let pending = STEPS;
  const answer = (events: RunEvent[]): StepAnswer => ({ events, pending, status: 'paused', code: null, reason: null, stepsDone: 0, stepsTotal: 2 });
  let t = teamStart('r', answer([]));
  const statuses = [...t.project];
  const moves: TeamMove['kind'][] = [t.move.kind];
  for (const events of steps) {
    if (t.move.kind === 'sleep') {
      t = teamStart('r', answer([]));
      statuses.push(...t.project);
      moves.push(t.move.kind);
    }
    if (events.some((e) => e.type === 'stepFinished' && e.outcome.kind === 'done')) pending = pending.slice(1);
    t = teamAfterStep(t.state, answer(events));
    statuses.push(...t.project);
    moves.push(t.move.kind);
  }
  return { statuses, moves };
}

describe('one run life: the team workflow decides as the local run machine does', () => {
  it.each(CASES)('$name', ({ steps, team: moves }) => {
    const l = local(steps);
    const tm = team(steps);
    expect(tm.statuses).toEqual(l);
    expect(tm.moves).toEqual(moves);
    // The statuses the team sees end where the local run ends.
    expect(l.at(-1)?.status).not.toBe('running');
  });

  it('names each end as the run machine words it', () => {
    expect(team(CASES[0]!.steps).statuses.map((s) => s.status)).toEqual(['running', 'succeeded']);
    expect(team(CASES[1]!.steps).statuses.map((s) => s.status)).toEqual(['running', 'waiting', 'running', 'succeeded']);
    expect(team(CASES[2]!.steps).statuses.at(-1)).toMatchObject({
      status: 'failed',
      reason_code: 'step_failed',
      reason: expect.stringContaining('rescue commit abc'),
    });
    expect(team(CASES[3]!.steps).statuses.at(-1)).toMatchObject({ status: 'paused', reason_code: 'step_needs_you' });
    expect(team(CASES[4]!.steps).statuses.at(-1)).toMatchObject({ status: 'paused', reason_code: 'task_budget' });
    expect(team(CASES[6]!.steps).statuses.at(-1)).toMatchObject({ status: 'cancelled', reason_code: 'stopped_by_user' });
    expect(team(CASES[7]!.steps).statuses.at(-1)).toMatchObject({ status: 'paused', reason_code: 'process_stopped' });
    expect(team(CASES[8]!.steps).statuses.at(-1)).toMatchObject({ status: 'failed', reason_code: 'internal_error' });
  });

  it('a begin that failed on its worker ends the run failed; a run git holds whole succeeds at once', () => {
    const failed = teamStart('r', { events: [{ type: 'crashed', message: 'no clone' }], pending: STEPS });
    expect(failed.project).toEqual([{ status: 'failed', reason: 'Internal error: no clone', reason_code: 'internal_error' }]);
    expect(failed.move).toEqual({ kind: 'end' });
    const whole = teamStart('r', { events: [], pending: [] });
    expect(whole.project.map((s) => s.status)).toEqual(['succeeded']);
  });

  it('a failed step whose rescue never answered ends failed, never half-decided', () => {
    const t = teamAfterStep(teamStart('r', { events: [], pending: STEPS }).state, {
      events: [stepFinished(fatal)],
      pending: STEPS,
      status: 'failed',
      code: null,
      reason: null,
      stepsDone: 0,
      stepsTotal: 2,
    });
    expect(t.state.ended).toBe(true);
    expect(t.project.at(-1)).toMatchObject({ status: 'failed' });
    expect(t.move.kind).toBe('end');
  });

  it('takes the steps left from the worker: a durable step run again after its push was refused may have run the last one', () => {
    const t = teamAfterStep(teamStart('r', { events: [], pending: STEPS }).state, {
      events: [stepDone()],
      pending: [],
      status: 'succeeded',
      code: null,
      reason: null,
      stepsDone: 2,
      stepsTotal: 2,
    });
    expect(t.project.map((s) => s.status)).toEqual(['succeeded']);
    expect(t.move.kind).toBe('end');
  });

  it('goes on after a step done with steps left, or parked; ends after the last step and after any end', () => {
    const a = (events: RunEvent[], pending: StepRef[]): StepAnswer => ({
      events,
      pending,
      status: 'paused',
      code: null,
      reason: null,
      stepsDone: 1,
      stepsTotal: 2,
    });
    expect(goesOn('r', a([stepDone()], [S2]))).toBe(true);
    expect(goesOn('r', a([stepFinished({ kind: 'parked', reason: 'later', wakeAt: WAKE })], STEPS))).toBe(true);
    expect(goesOn('r', a([stepDone()], []))).toBe(false);
    expect(goesOn('r', a([stepFinished(escalate)], STEPS))).toBe(false);
  });
});
