// The precedence of a run's budgets: the workflow's own as a whole, else Settings', with New task's typed task budget over either's task_usd.
import { describe, expect, it } from 'vitest';
import { runBudget, withRunBudget } from './run-budget';
import type { Workflow } from './schema';

const none = { taskUsd: null, dailyUsd: null, alertAt: 0.8 };
const settings = { taskUsd: 2, dailyUsd: 9, alertAt: 0.5 };

describe('runBudget', () => {
  it('keeps the workflow’s own budget as a whole: nothing missing is taken from Settings', () => {
    expect(runBudget({ task_usd: 1, alert_at: 0.8 }, settings)).toEqual({ task_usd: 1, alert_at: 0.8 });
    expect(runBudget({ daily_usd: 3, alert_at: 0.9 }, settings)).toEqual({ daily_usd: 3, alert_at: 0.9 });
  });

  it('gives a workflow without one Settings’ budgets, alert threshold included', () => {
    expect(runBudget(undefined, settings)).toEqual({ task_usd: 2, daily_usd: 9, alert_at: 0.5 });
    expect(runBudget(undefined, { ...none, dailyUsd: 4 })).toEqual({ daily_usd: 4, alert_at: 0.8 });
    expect(runBudget(undefined, { ...none, alertAt: 0.5 })).toEqual({ alert_at: 0.5 });
  });

  it('gives none when neither the workflow nor Settings say anything beyond the defaults', () => {
    expect(runBudget(undefined, none)).toBeUndefined();
  });

  it('puts the task budget typed in New task over the workflow’s or Settings’ task_usd, keeping the rest', () => {
    expect(runBudget({ task_usd: 9, daily_usd: 30, alert_at: 0.9 }, settings, 0.25)).toEqual({ task_usd: 0.25, daily_usd: 30, alert_at: 0.9 });
    expect(runBudget(undefined, settings, 0.25)).toEqual({ task_usd: 0.25, daily_usd: 9, alert_at: 0.5 });
    expect(runBudget(undefined, none, 0.25)).toEqual({ task_usd: 0.25, alert_at: 0.8 });
  });

  it('leaves the workflow object as it is when nothing changes', () => {
    const w = { steps: [], gates: {} } as unknown as Workflow;
    expect(withRunBudget(w, none)).toBe(w);
    expect(withRunBudget(w, settings).budget).toEqual({ task_usd: 2, daily_usd: 9, alert_at: 0.5 });
  });
});
