// What-if replay: outcomes under another policy, unknown where history has no attempt, budgets, and the totals.
import { describe, expect, it } from 'vitest';
import type { ErrorClass } from '../../../shared/domain';
import { actualOutcome, CHANGED_LISTED, resolveChoice, simulateRun, whatIf, type HistoryAttempt, type HistoryRun } from './what-if';

const fail = (errorClass: ErrorClass, costUsd = 0.1): HistoryAttempt => ({ outcome: 'failed', errorClass, costUsd });
const pass = (costUsd = 0.1): HistoryAttempt => ({ outcome: 'passed', errorClass: null, costUsd });

function run(runId: string, status: HistoryRun['status'], steps: HistoryAttempt[][], reason: string | null = null): HistoryRun {
  return { runId, title: `task ${runId}`, status, reason, steps: steps.map((attempts, i) => ({ index: i + 1, title: `s${i + 1}`, attempts })) };
}

describe('what-if', () => {
  it('replays a run under its own policy to its recorded outcome', () => {
    const r = run('a', 'failed', [[pass()], [fail('test_failure'), fail('test_failure'), fail('test_failure'), fail('test_failure')]]);
    const v = simulateRun(r, resolveChoice({}));
    expect(v.simulated).toBe('failed');
    expect(v.reason).toBe('step 2 "s2" fails after attempt 4: 3 test failure retries used up');
    expect(v.simulatedCostUsd).toBeCloseTo(0.5);
  });

  it('fewer retries fail earlier and cost less; a success on attempt 3 is lost with one retry', () => {
    const r = run('b', 'succeeded', [[fail('test_failure'), fail('test_failure'), pass()]]);
    const v = simulateRun(r, resolveChoice({ maxRetries: 1 }));
    expect(v.simulated).toBe('failed');
    expect(v.simulatedCostUsd).toBeCloseTo(0.2);
    expect(simulateRun(r, resolveChoice({ preset: 'minimal' })).simulated).toBe('failed');
    expect(simulateRun(r, resolveChoice({ preset: 'conservative' })).simulated).toBe('succeeded');
  });

  it('more retries than history holds give unknown, never a guessed success', () => {
    const r = run('c', 'failed', [[fail('compilation_error'), fail('compilation_error'), fail('compilation_error')]]);
    expect(simulateRun(r, resolveChoice({})).simulated).toBe('failed');
    const v = simulateRun(r, resolveChoice({ limits: { compilation_error: 5 } }));
    expect(v.simulated).toBe('unknown');
    expect(v.reason).toContain('attempt 4, which was never made');
  });

  it('limits count per class, non-retriable classes fail at once, escalating classes go to the user', () => {
    const mixed = run('d', 'succeeded', [[fail('test_failure'), fail('compilation_error'), fail('test_failure'), pass()]]);
    expect(simulateRun(mixed, resolveChoice({ maxRetries: 2, limits: { compilation_error: 1 } })).simulated).toBe('succeeded');
    expect(simulateRun(mixed, resolveChoice({ maxRetries: 1 })).simulated).toBe('failed');
    expect(simulateRun(run('e', 'failed', [[fail('missing_dependency')]]), resolveChoice({ maxRetries: 9 })).simulated).toBe('failed');
    expect(simulateRun(run('f', 'paused', [[fail('git_conflict'), fail('git_conflict')]]), resolveChoice({})).simulated).toBe('needs_you');
  });

  it('a budget stops the run before the attempt that would start at or above it', () => {
    const r = run('g', 'succeeded', [[fail('test_failure', 0.3), fail('test_failure', 0.3), pass(0.3)]]);
    const v = simulateRun(r, resolveChoice({ taskUsd: 0.5 }));
    expect(v.simulated).toBe('budget');
    expect(v.simulatedCostUsd).toBeCloseTo(0.6);
    expect(v.reason).toContain('before attempt 3');
  });

  it("a test-first step's red attempt is no failure, and its violations use the test failures' limit", () => {
    const red: HistoryAttempt = { outcome: 'red', errorClass: null, costUsd: 0.1 };
    expect(simulateRun(run('t', 'succeeded', [[red, pass()]]), resolveChoice({ maxRetries: 0 })).simulated).toBe('succeeded');
    const violations = run('u', 'succeeded', [[fail('tdd_violation'), fail('tdd_violation'), red, pass()]]);
    expect(simulateRun(violations, resolveChoice({ maxRetries: 2 })).simulated).toBe('succeeded');
    expect(simulateRun(violations, resolveChoice({ maxRetries: 1 })).reason).toContain('1 tdd violation retry used up');
  });

  it('a flaky pass counts as passed, an interrupted attempt is unknown', () => {
    expect(simulateRun(run('h', 'succeeded', [[{ outcome: 'flaky', errorClass: null, costUsd: 0.1 }]]), resolveChoice({})).simulated).toBe('succeeded');
    expect(simulateRun(run('i', 'interrupted', [[{ outcome: 'interrupted', errorClass: null, costUsd: 0 }]]), resolveChoice({})).simulated).toBe('unknown');
    // Interrupted, then resumed: the interruption does not use a retry.
    const resumed = run('j', 'succeeded', [[{ outcome: 'interrupted', errorClass: null, costUsd: 0.1 }, pass()]]);
    expect(simulateRun(resumed, resolveChoice({ maxRetries: 0 }))).toMatchObject({ simulated: 'succeeded', simulatedCostUsd: 0.2 });
  });

  it('maps recorded statuses, telling a budget pause from others, and leaves running or cancelled runs out', () => {
    expect(actualOutcome({ status: 'paused', reason: 'task budget of $1.00 reached' })).toBe('budget');
    expect(actualOutcome({ status: 'paused', reason: 'escalated: unknown error' })).toBe('needs_you');
    expect(actualOutcome({ status: 'cancelled', reason: null })).toBe('other');
    expect(actualOutcome({ status: 'running', reason: null })).toBe('other');
  });

  it('tells a budget pause by the run’s reason code, whatever its words; a run from before codes by its reason', () => {
    expect(actualOutcome({ status: 'paused', reason: 'Plafond de la tâche atteint', reasonCode: 'task_budget' })).toBe('budget');
    expect(actualOutcome({ status: 'paused', reason: 'step 2 needs you: the budget of retries is spent', reasonCode: 'step_needs_you' })).toBe('needs_you');
    expect(actualOutcome({ status: 'paused', reason: 'task budget of $1.00 reached', reasonCode: null })).toBe('budget');
  });

  it('totals the period and lists only the runs that change, most expensive first', () => {
    const history = [
      run('x', 'succeeded', [[fail('test_failure'), fail('test_failure'), pass()]]),
      run('y', 'succeeded', [[pass(0.05)]]),
      run('z', 'succeeded', [[fail('test_failure', 1), fail('test_failure', 1), pass(1)]]),
      run('w', 'cancelled', [[fail('test_failure')]]),
    ];
    const r = whatIf(history, { maxRetries: 1 });
    expect(r.runs).toBe(3);
    expect(r.actual).toMatchObject({ succeeded: 3, failed: 0 });
    expect(r.simulated).toMatchObject({ succeeded: 1, failed: 2 });
    expect(r.actual.costUsd).toBeCloseTo(3.35);
    expect(r.simulated.costUsd).toBeCloseTo(0.2 + 0.05 + 2);
    expect(r.changed.map((c) => c.runId)).toEqual(['z', 'x']);
    expect(r.changed[0]).toMatchObject({ actual: 'succeeded', simulated: 'failed' });
    expect(r.assumptions.length).toBeGreaterThan(0);
  });

  it('lists only the most expensive changed runs and counts them all, so a year of history crosses to the host as a small answer', () => {
    // Every run succeeded on its third attempt: with one retry each of them fails instead.
    const history = Array.from({ length: CHANGED_LISTED * 40 }, (_, i) =>
      run(`r${i}`, 'succeeded', [[fail('test_failure', i / 1000), fail('test_failure'), pass()]]),
    );
    const r = whatIf(history, { maxRetries: 1 });
    expect(r.changedCount).toBe(history.length);
    expect(r.changed).toHaveLength(CHANGED_LISTED);
    expect(r.changed[0]!.runId).toBe(`r${history.length - 1}`);
    expect(r.changed.at(-1)!.runId).toBe(`r${history.length - CHANGED_LISTED}`);
    // What crosses from the stats worker to the host (structured clone) stays the same size however long the period.
    expect(JSON.stringify(r).length).toBeLessThan(30_000);
    expect(r.simulated.failed).toBe(history.length);
  });
});
