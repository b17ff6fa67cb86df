// The step machine's randomness (the backoff's jitter) travels in its events: the same events replay the same way,
// whatever the machine's own rng would have drawn.
import { describe, expect, it } from 'vitest';
import { gateFailure, stepMachine } from '../testing/step-fixtures';
import type { Failure } from './attempt-gates';
import { initialState } from './step-machine';
import type { StepCommand, StepEvent } from './step-state';

const NOW = new Date('2026-01-01T00:00:00.000Z');

function machineWith(rng: () => number) {
  return stepMachine({ yaml: 'backoff: { base_s: 10, max_s: 100, jitter: 1 }', rng }).machine;
}

const failure: Failure = gateFailure({ output: 'not ok' });

function sleeps(rng: () => number, draw: number | undefined): number[] {
  const machine = machineWith(rng);
  const events: StepEvent[] = [
    { type: 'start' },
    {
      type: 'budgetChecked',
      facts: { taskUsd: null, dailyUsd: null, alertAt: 0.8, taskSpent: 0, daySpent: 0, alerted: { task: false, daily: false } },
      dayNext: '2026-01-02T00:00:00.000Z',
    },
    { type: 'agentFinished', timedOut: false, attemptId: 1, sessionId: 's', tree: 't1', treeRef: 'r1', diff: 'd' },
    { type: 'gatesFinished', failure, flaky: false, notes: [], ...(draw === undefined ? {} : { draw }) },
  ];
  let s = initialState(1, 'base');
  const commands: StepCommand[] = [];
  for (const e of events) {
    const t = machine.next(s, e, NOW);
    s = t.state;
    commands.push(...t.commands);
  }
  return commands.flatMap((c) => (c.kind === 'sleep' ? [c.delayS] : []));
}

describe('the step machine replays', () => {
  it("uses the event's draw for the backoff's jitter, not its own rng", () => {
    const withDraw = sleeps(() => 0.9, 0.25);
    expect(withDraw).toHaveLength(1);
    expect(sleeps(() => 0.1, 0.25)).toEqual(withDraw);
    // Without a draw in the event, the config's rng decides (and differently).
    expect(sleeps(() => 0.9, undefined)).not.toEqual(sleeps(() => 0.1, undefined));
  });
});
