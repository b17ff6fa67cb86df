// The reasons a paused or failed run shows: sentences that state the error once, with its class as a readable label.
import { describe, expect, it } from 'vitest';
import { gateFailure, stepMachine } from '../testing/step-fixtures';
import type { Failure } from '../step/attempt-gates';
import { initialState } from '../step/step-machine';
import type { StepEvent, StepState } from '../step/step-state';
import { autoProgressReason, runEndReason } from './run-reasons';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const MESSAGE = 'the agent process exited with EACCES writing /etc/hosts';

function ended(errorClass: Failure['errorClass']): StepState {
  const { machine } = stepMachine({ title: 'Write the hosts file' });
  const failure: Failure = gateFailure({ output: MESSAGE, errorClass, message: MESSAGE });
  const ok: StepEvent = {
    type: 'budgetChecked',
    facts: { taskUsd: null, dailyUsd: null, alertAt: 0.8, taskSpent: 0, daySpent: 0, alerted: { task: false, daily: false } },
    dayNext: '2026-01-02T00:00:00.000Z',
  };
  let s = initialState(1, 'base');
  const events: StepEvent[] = [{ type: 'start' }];
  for (let i = 1; i <= 6; i++)
    events.push(
      ok,
      { type: 'agentFinished', timedOut: false, attemptId: 100 + i, sessionId: `s${i}`, tree: `t${i}`, treeRef: `refs/x/${i}`, diff: `d${i}` },
      { type: 'gatesFinished', failure, flaky: false, notes: [] },
    );
  for (const e of events) {
    if (s.outcome) break;
    s = machine.next(s, e, NOW).state;
  }
  return s;
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('run reasons', () => {
  it.each([
    ['unknown', 'escalate', /^Step 1 "Write the hosts file" needs you: Unknown error gets no retries/],
    ['crash', 'fatal', /^Step 1 "Write the hosts file" failed: gave up after 2 crash retries\./],
  ] as const)('a run a step ended (%s) states its error once, with the class as a readable label (issue 13 item 8)', (errorClass, kind, start) => {
    const outcome = ended(errorClass).outcome;
    if (outcome?.kind !== kind) throw new Error(`expected ${kind}, got ${JSON.stringify(outcome)}`);
    const reason = runEndReason(outcome);
    expect(count(reason, MESSAGE)).toBe(1);
    expect(reason).not.toMatch(/\b(unknown|crash):|\w+_\w+ retr/);
    expect(reason).toMatch(start);
    if (kind === 'fatal') expect(reason).toContain('2. Retry 1: the same crash again');
  });

  it('next steps name this run and only what will work for it: Start again when no step is committed, Retry once one is (issue 20 item 4)', () => {
    const outcome = ended('crash').outcome;
    if (outcome?.kind !== 'fatal') throw new Error('expected fatal');
    const none = runEndReason(outcome, '', { runId: 'r0abc', committedSteps: 0 });
    expect(none).not.toContain('<run-id>');
    expect(none).not.toMatch(/Retry the run|ratchet retry/);
    expect(none).toContain('`ratchet restart r0abc`');
    expect(none).toContain('`ratchet plan r0abc --edit plan.yml`');
    const some = runEndReason(outcome, '', { runId: 'r0abc', committedSteps: 2 });
    expect(some).toContain('`ratchet retry r0abc`');
    expect(some).not.toContain('ratchet restart');
  });

  it('a step that needs the user says to resume this run', () => {
    const outcome = ended('unknown').outcome;
    if (outcome?.kind !== 'escalate') throw new Error('expected escalate');
    const reason = runEndReason(outcome, '', { runId: 'r0abc', committedSteps: 0 });
    expect(reason).toContain('`ratchet resume r0abc`');
    expect(reason).not.toContain('<run-id>');
  });

  it('auto-progress pauses read as sentences, without the option name', () => {
    expect(autoProgressReason({ kind: 'step', doneStep: 1, nextStep: 2 })).toBe(
      'Paused after step 1, as you asked to go one step at a time. Resume to continue with step 2.',
    );
    expect(autoProgressReason({ kind: 'phase', phase: 'build', nextPhase: null })).toBe(
      'Phase "build" is complete, as you asked to go one phase at a time. Resume to continue with the next phase.',
    );
  });
});
