// Which budget stopped a run, by its reason code (the run machine's): the words of its reason play no part.
import { describe, expect, it } from 'vitest';
import { initialRunState, nextRun, type RunEvent, type RunStatusCommand } from '../../../electron/engine/run/run-machine';
import { budgetStopOf } from './budget-stop';

const NOW = new Date('2026-01-01T00:00:00Z');

/** The status the run machine sets when a step stops at a budget (whatever the reason says). */
function machineStop(budget: 'task' | 'daily'): RunStatusCommand {
  const events: RunEvent[] = [
    { type: 'reconciled', allDone: false },
    { type: 'prepared', ready: 'ready', pending: [{ index: 1, title: 'one', phase: null }], total: 1 },
    {
      type: 'stepFinished',
      outcome: { kind: 'budget', budget, reason: 'Budget atteint (reworded: no English words to match)', wakeAt: budget === 'daily' ? 'T' : null },
      userStop: false,
      leaseLost: false,
      committedSteps: 0,
    },
  ];
  let state = initialRunState('r1');
  let last: RunStatusCommand | undefined;
  for (const e of events) {
    const t = nextRun(state, e, NOW);
    state = t.state;
    for (const c of t.commands) if (c.kind === 'setStatus') last = c;
  }
  return last!;
}

describe('budgetStopOf', () => {
  it('names the budget the run machine stopped the run at, whatever its reason says', () => {
    const task = machineStop('task');
    const daily = machineStop('daily');
    expect(budgetStopOf(task.status, task.code)).toBe('task');
    expect(budgetStopOf(daily.status, daily.code)).toBe('daily');
  });

  it('is null for a run that is not stopped, stopped for another reason, or without a code', () => {
    expect(budgetStopOf('failed', 'task_budget')).toBeNull();
    expect(budgetStopOf('running', 'daily_budget')).toBeNull();
    expect(budgetStopOf('paused', 'step_needs_you')).toBeNull();
    expect(budgetStopOf('paused', null)).toBeNull();
    expect(budgetStopOf('paused', undefined)).toBeNull();
  });
});
