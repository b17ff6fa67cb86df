import { describe, expect, it } from 'vitest';
import { localDay, reportMarkdown, statsWindow, summarise, type StatsInput } from './stats';

const now = new Date('2026-11-21T12:00:00Z');
const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();

function fixture(): StatsInput {
  return {
    runs: [
      { id: 'a', status: 'succeeded', createdAt: at(1) },
      { id: 'b', status: 'failed', createdAt: at(2) },
      { id: 'c', status: 'running', createdAt: at(0) },
    ],
    steps: [
      { runId: 'a', index: 1, title: 's1', status: 'succeeded' },
      { runId: 'a', index: 2, title: 's2', status: 'succeeded' },
      { runId: 'b', index: 1, title: 's1', status: 'succeeded' },
      { runId: 'b', index: 2, title: 's2', status: 'failed' },
    ],
    attempts: [
      { runId: 'a', step: 1, n: 1, outcome: 'passed', errorClass: null, action: null, costUsd: 0.1 },
      { runId: 'a', step: 2, n: 1, outcome: 'failed', errorClass: 'test_failure', action: 'retry', costUsd: 0.1 },
      { runId: 'a', step: 2, n: 2, outcome: 'passed', errorClass: null, action: null, costUsd: 0.05 },
      { runId: 'b', step: 1, n: 1, outcome: 'flaky', errorClass: null, action: null, costUsd: 0.1 },
      { runId: 'b', step: 2, n: 1, outcome: 'failed', errorClass: 'compilation_error', action: 'retry', costUsd: 0.1 },
      { runId: 'b', step: 2, n: 2, outcome: 'failed', errorClass: 'compilation_error', action: 'retry', costUsd: 0.1 },
      { runId: 'b', step: 2, n: 3, outcome: 'failed', errorClass: 'compilation_error', action: 'fatal', costUsd: 0.1 },
    ],
    calls: [
      { at: at(1), costUsd: 0.25, outcome: 'passed', earlier: [] },
      { at: at(1), costUsd: 0.05, outcome: 'passed', earlier: ['failed'] },
      { at: at(2), costUsd: 0.3, outcome: 'failed', earlier: ['failed'] },
    ],
    dailyBudgetUsd: 50,
  };
}

describe('summarise', () => {
  it('computes success rate over finished runs, attempts per success, breakdown and reasons', () => {
    const s = summarise(fixture(), 7, now);
    expect(s).toMatchObject({ runs: 3, succeeded: 1, failed: 1, successRate: 0.5, avgAttemptsPerSuccess: 1.33 });
    expect(s.retryBreakdown).toEqual({ r0: 2, r1: 1, r2: 0, r3plus: 0, failedAfterMax: 1 });
    expect(s.retryReasons).toEqual([
      { errorClass: 'compilation_error', count: 2 },
      { errorClass: 'test_failure', count: 1 },
    ]);
    expect(s.savedByRetries).toBe(1);
    expect(s.totalCostUsd).toBeCloseTo(0.6, 6);
    expect(s.retryCostUsd).toBeCloseTo(0.35, 6);
  });

  it('has one cost row per day of the window, against the daily budget', () => {
    const s = summarise(fixture(), 7, now);
    expect(s.costPerDay).toHaveLength(7);
    expect(s.costPerDay.reduce((n, d) => n + d.costUsd, 0)).toBeCloseTo(0.6, 6);
    expect(s.dailyBudgetUsd).toBe(50);
  });

  it('suggests from what stands out', () => {
    const s = summarise(fixture(), 7, now);
    expect(s.suggestions.join('\n')).toMatch(/Compilation error caused 67 % of retries: add a build or typecheck gate/);
    expect(s.suggestions.join('\n')).toContain('1 step failed after every retry');
    expect(s.suggestions.join('\n')).toContain('1 attempt passed only on a re-run');
  });

  it("counts a test-first step's red attempt as neither a try nor a retry, its cost as the step's first-try cost", () => {
    // Step 1: the test (red), then the implementation passing first time. Step 2: red, a failure, then a pass.
    const input: StatsInput = {
      runs: [{ id: 't', status: 'succeeded', createdAt: at(1) }],
      steps: [
        { runId: 't', index: 1, title: 's1', status: 'succeeded' },
        { runId: 't', index: 2, title: 's2', status: 'succeeded' },
      ],
      attempts: [
        { runId: 't', step: 1, n: 1, outcome: 'red', errorClass: null, action: null, costUsd: 0.2 },
        { runId: 't', step: 1, n: 2, outcome: 'passed', errorClass: null, action: null, costUsd: 0.1 },
        { runId: 't', step: 2, n: 1, outcome: 'red', errorClass: null, action: null, costUsd: 0.2 },
        { runId: 't', step: 2, n: 2, outcome: 'failed', errorClass: 'test_failure', action: 'retry', costUsd: 0.1 },
        { runId: 't', step: 2, n: 3, outcome: 'passed', errorClass: null, action: null, costUsd: 0.05 },
      ],
      calls: [
        { at: at(1), costUsd: 0.2, outcome: 'red', earlier: [] },
        { at: at(1), costUsd: 0.1, outcome: 'passed', earlier: ['red'] },
        { at: at(1), costUsd: 0.2, outcome: 'red', earlier: [] },
        { at: at(1), costUsd: 0.1, outcome: 'failed', earlier: ['red'] },
        { at: at(1), costUsd: 0.05, outcome: 'passed', earlier: ['red', 'failed'] },
      ],
      dailyBudgetUsd: null,
    };
    const s = summarise(input, 7, now);
    expect(s.retryBreakdown).toEqual({ r0: 1, r1: 1, r2: 0, r3plus: 0, failedAfterMax: 0 });
    expect(s.avgAttemptsPerSuccess).toBe(1.5);
    expect(s.savedByRetries).toBe(1);
    expect(s.totalCostUsd).toBeCloseTo(0.65, 6);
    expect(s.retryCostUsd).toBeCloseTo(0.05, 6);
    // Step 1 alone: 0 retries and no retry cost.
    const one = summarise({ ...input, steps: input.steps.slice(0, 1), attempts: input.attempts.slice(0, 2), calls: input.calls.slice(0, 2) }, 7, now);
    expect(one.retryBreakdown.r0).toBe(1);
    expect(one.savedByRetries).toBe(0);
    expect(one.retryCostUsd).toBe(0);
    expect(one.totalCostUsd).toBeCloseTo(0.3, 6);
  });

  it('counts an attempt cut by a stop as no try, and the one that carries on after it as no retry', () => {
    const s = summarise(
      {
        runs: [{ id: 'i', status: 'succeeded', createdAt: at(1) }],
        steps: [{ runId: 'i', index: 1, title: 's1', status: 'succeeded' }],
        attempts: [
          { runId: 'i', step: 1, n: 1, outcome: 'interrupted', errorClass: null, action: null, costUsd: 0.1 },
          { runId: 'i', step: 1, n: 2, outcome: 'passed', errorClass: null, action: null, costUsd: 0.1 },
        ],
        calls: [
          { at: at(1), costUsd: 0.1, outcome: 'interrupted', earlier: [] },
          { at: at(1), costUsd: 0.1, outcome: 'passed', earlier: ['interrupted'] },
        ],
        dailyBudgetUsd: null,
      },
      7,
      now,
    );
    expect(s.retryBreakdown.r0).toBe(1);
    expect(s.retryCostUsd).toBe(0);
    expect(s.totalCostUsd).toBeCloseTo(0.2, 6);
  });

  it('has no rates when nothing finished', () => {
    const s = summarise({ runs: [], steps: [], attempts: [], calls: [], dailyBudgetUsd: null }, 30, now);
    expect(s).toMatchObject({ successRate: null, avgAttemptsPerSuccess: null, runs: 0 });
    expect(s.costPerDay).toHaveLength(30);
  });
});

describe('reportMarkdown', () => {
  it("reads like seed 002's weekly report", () => {
    const md = reportMarkdown(summarise(fixture(), 7, now), now);
    expect(md).toContain('# Retry statistics — last 7 days');
    expect(md).toContain('**Success rate:** 50.0 % (1 of 2 finished runs; 3 runs started)');
    expect(md).toContain('| 1 retry | 1 (25.0 %) |');
    expect(md).toContain('1. Compilation error: 2 retries (67 %)');
  });
});

describe('the period', () => {
  it('charts every calendar day the counts include, across a daylight-saving change', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      // Every hour of the ten days around the end of daylight saving time (1 Nov 2026 there).
      for (let h = 0; h < 24 * 10; h++) {
        const now = new Date(Date.parse('2026-10-28T00:30:00Z') + h * 3_600_000);
        for (const days of [7, 30]) {
          const chart = summarise({ runs: [], steps: [], attempts: [], calls: [], dailyBudgetUsd: null }, days, now).costPerDay.map((d) => d.day);
          expect(new Set(chart).size, now.toString()).toBe(days);
          expect(chart[0], now.toString()).toBe(statsWindow(days, now).sinceDay);
          expect(chart[days - 1]).toBe(localDay(now.toISOString()));
        }
      }
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});
