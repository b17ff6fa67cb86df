// Which budget stopped a run, from the engine's reasons (runs/budget.ts): the stop and the agent's cap, task and daily alike.
import { describe, expect, it } from 'vitest';
import { budgetCapReason, checkBudget } from '../../../electron/engine/runs/budget';
import { budgetStopOf } from './budget-stop';

const facts = { taskUsd: 1, dailyUsd: 1000, alertAt: 0.8, taskSpent: 1.02, daySpent: 3, alerted: { task: false, daily: false }, runId: 'r1' };

describe('budgetStopOf', () => {
  it('names the budget in the engine’s own reasons', () => {
    const task = checkBudget(facts);
    const daily = checkBudget({ ...facts, taskUsd: null, daySpent: 1234.5 });
    expect(task.ok || budgetStopOf('paused', task.reason)).toBe('task');
    expect(daily.ok || budgetStopOf('waiting', daily.reason)).toBe('daily');
    expect(budgetStopOf('paused', budgetCapReason('task', facts, 'stopped before a call'))).toBe('task');
    expect(budgetStopOf('waiting', budgetCapReason('daily', { ...facts, dailyUsd: 1500 }, 'stopped before a call'))).toBe('daily');
  });

  it('is null for a run that is not stopped, or stopped for another reason', () => {
    expect(budgetStopOf('failed', 'task budget of $1.00 reached')).toBeNull();
    expect(budgetStopOf('paused', 'step 2 escalated: the same failure three times')).toBeNull();
    expect(budgetStopOf('paused', null)).toBeNull();
  });
});
