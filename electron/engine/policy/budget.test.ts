import { describe, expect, it } from 'vitest';
import { checkBudget, dayBounds } from './budget';

const base = { taskUsd: 5, dailyUsd: 50, alertAt: 0.8, taskSpent: 0, daySpent: 0, alerted: { task: false, daily: false } };

describe('checkBudget', () => {
  it('allows an attempt under both budgets', () => {
    expect(checkBudget(base)).toEqual({ ok: true, alerts: [] });
  });
  it('stops at the task budget, naming it', () => {
    const v = checkBudget({ ...base, taskSpent: 5.01 });
    expect(v).toMatchObject({ ok: false, kind: 'task' });
    if (!v.ok) expect(v.reason).toContain('task budget of $5.00 reached ($5.01 spent)');
  });
  it('names a sub-cent budget and what was spent with enough digits, once, with the run to resume', () => {
    const v = checkBudget({ ...base, taskUsd: 0.004, taskSpent: 0.0059, runId: 'r-42' });
    if (v.ok) throw new Error('expected a stop');
    expect(v.reason).toMatch(/^task budget of \$0\.0040 reached \(\$0\.0059 spent\)/);
    expect(v.reason.match(/\$0\.0040/g)).toHaveLength(1);
    expect(v.reason).toContain('ratchet resume r-42 --budget <usd>');
    expect(v.reason).not.toContain('$0.00 ');
  });
  it('stops at the daily budget', () => {
    expect(checkBudget({ ...base, daySpent: 50 })).toMatchObject({ ok: false, kind: 'daily' });
  });
  it('alerts once when crossing alert_at', () => {
    expect(checkBudget({ ...base, taskSpent: 4 })).toEqual({ ok: true, alerts: [{ kind: 'task', spent: 4, limit: 5 }] });
    expect(checkBudget({ ...base, taskSpent: 4, alerted: { task: true, daily: false } })).toEqual({ ok: true, alerts: [] });
    expect(checkBudget({ ...base, daySpent: 41 })).toEqual({ ok: true, alerts: [{ kind: 'daily', spent: 41, limit: 50 }] });
  });
  it('has no limit where no budget is set', () => {
    expect(checkBudget({ ...base, taskUsd: null, dailyUsd: null, taskSpent: 1e6, daySpent: 1e6 })).toEqual({ ok: true, alerts: [] });
  });
  it('gives the local day bounds', () => {
    const { start, next } = dayBounds(new Date(2026, 10, 21, 15, 30));
    expect([start.getHours(), start.getDate(), next.getDate(), next.getTime() - start.getTime()]).toEqual([0, 21, 22, 86_400_000]);
  });
});
