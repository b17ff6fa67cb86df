// Tests for the improvement suggestions: the pure rules, and the per-class summary they read from a real store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { improvementSuggestions, improvementText, type ClassRecord } from './improvements';
import { DEFAULT_LIMITS } from '../policy/policy';
import { loadClassRecords } from './stats-load';
import { rebuildClassSummary } from '../store/migrations/0016-stats-tries';
import { isTry } from './stats';
import { openDatabase } from '../store/open-store';
import { writeVariedHistory } from '../store/testing/varied-history';

const rec = (r: Partial<ClassRecord> & Pick<ClassRecord, 'errorClass'>): ClassRecord => ({
  steps: 0,
  retries: 0,
  fixed: 0,
  fixedAfter: [0, 0, 0, 0],
  givenUp: 0,
  ...r,
});
const base = { successSteps: 0, avgAttemptsPerSuccess: null };

describe('improvementSuggestions', () => {
  it('says to lower the limit of a class that is retried a lot and rarely fixed, to what the fixes needed', () => {
    // 10 steps hit by test failures, 42 retries: 3 fixed (after 1 and 2 retries), the rest given up.
    const out = improvementSuggestions({
      ...base,
      classes: [rec({ errorClass: 'test_failure', steps: 10, retries: 42, fixed: 3, fixedAfter: [2, 1, 0, 0], givenUp: 7 })],
      limits: DEFAULT_LIMITS,
    });
    expect(out[0]).toEqual({
      finding: 'Test failures were retried 4.2 times on average and fixed 30 % of the time; every fix came within 2 retries',
      action: 'lower max retries for test_failure to 2',
      errorClass: 'test_failure',
    });
    expect(improvementText(out[0]!)).toBe(
      'Test failures were retried 4.2 times on average and fixed 30 % of the time; every fix came within 2 retries → lower max retries for test_failure to 2',
    );
  });

  it('says to stop retrying a class that was never fixed', () => {
    const [first] = improvementSuggestions({
      ...base,
      classes: [rec({ errorClass: 'compilation_error', steps: 3, retries: 6, givenUp: 3 })],
      limits: DEFAULT_LIMITS,
    });
    expect(improvementText(first!)).toBe(
      'Compilation errors were retried 2.0 times on average and fixed 0 % of the time → stop retrying compilation_error (limit 0) and revise those steps instead',
    );
  });

  it('says to raise the limit of a class that is almost always fixed but was given up at the limit', () => {
    const [first] = improvementSuggestions({
      ...base,
      classes: [rec({ errorClass: 'timeout', steps: 9, retries: 9, fixed: 8, fixedAfter: [8, 0, 0, 0], givenUp: 1 })],
      limits: DEFAULT_LIMITS,
    });
    expect(improvementText(first!)).toBe(
      'Timeouts were retried 1.0 times on average and fixed 89 % of the time, but 1 failure was given up at the limit of 1 → raise max retries for timeout to 2',
    );
  });

  it('gives the class advice when steps keep failing on it and the fixes needed the whole limit', () => {
    const [first] = improvementSuggestions({
      ...base,
      classes: [rec({ errorClass: 'test_failure', steps: 8, retries: 20, fixed: 3, fixedAfter: [0, 0, 3, 0], givenUp: 5 })],
      limits: DEFAULT_LIMITS,
    });
    expect(improvementText(first!)).toBe(
      '5 steps that failed on test failures were never fixed → consider: give those steps the expected values and the test names they must satisfy',
    );
  });

  it("says the first-try rate is good, as seed 002's weekly report does, and flags days over the daily budget", () => {
    const out = improvementSuggestions({
      classes: [],
      limits: DEFAULT_LIMITS,
      successSteps: 6,
      avgAttemptsPerSuccess: 1.17,
      daysOverBudget: 2,
      dailyBudgetUsd: 20,
    }).map(improvementText);
    expect(out).toEqual([
      'Average 1.2 attempts per successful step suggests a good first-try rate → continue the current task description format',
      'The daily budget of $20.00 was exceeded on 2 days → raise the daily budget in Settings, or use the minimal preset for large tasks',
    ]);
  });

  it('says nothing from too little history', () => {
    expect(
      improvementSuggestions({
        ...base,
        classes: [rec({ errorClass: 'test_failure', steps: 2, retries: 8, givenUp: 2 })],
        limits: DEFAULT_LIMITS,
        successSteps: 4,
        avgAttemptsPerSuccess: 1,
      }),
    ).toEqual([]);
  });
});

describe('the per-class summary (migration 13)', () => {
  const end = new Date('2026-11-21T15:30:00Z');

  /** The reference: per class, from every attempt row, in TypeScript. */
  function fromRows(db: ReturnType<typeof openDatabase>['db']): ClassRecord[] {
    const rows = db.prepare('SELECT run_id, step_index, n, outcome, error_class, decision_json FROM attempts ORDER BY run_id, step_index, n').all() as Array<{
      run_id: string;
      step_index: number;
      n: number;
      outcome: string;
      error_class: string | null;
      decision_json: string | null;
    }>;
    const steps = new Map<string, typeof rows>();
    for (const r of rows) steps.set(`${r.run_id}#${r.step_index}`, [...(steps.get(`${r.run_id}#${r.step_index}`) ?? []), r]);
    const by = new Map<string, ClassRecord>();
    const get = (c: string) => by.get(c) ?? by.set(c, rec({ errorClass: c as ClassRecord['errorClass'] })).get(c)!;
    for (const r of rows) {
      if (!r.error_class || (r.outcome !== 'failed' && r.outcome !== 'error')) continue;
      const c = get(r.error_class);
      if (r.decision_json && (JSON.parse(r.decision_json) as { action?: string }).action === 'retry') c.retries++;
      else c.givenUp++;
    }
    for (const attempts of steps.values()) {
      const pass = attempts.find((a) => a.outcome === 'passed' || a.outcome === 'flaky');
      const first = new Map<string, number>();
      for (const a of attempts)
        if (a.error_class && (a.outcome === 'failed' || a.outcome === 'error') && !first.has(a.error_class)) first.set(a.error_class, a.n);
      for (const [cls, n] of first) {
        const c = get(cls);
        c.steps++;
        if (pass && pass.n > n) {
          c.fixed++;
          // After how many tries (a test-first step's red attempt, or one cut by a stop, is none).
          const tries = attempts.filter((a) => a.n > n && a.n <= pass.n && isTry(a.outcome)).length;
          c.fixedAfter[Math.min(tries, 4) - 1]!++;
        }
      }
    }
    return [...by.values()].filter((c) => c.steps > 0).sort((x, y) => x.errorClass.localeCompare(y.errorClass));
  }

  it('kept by the triggers equals what the rows say, and what a rebuild gives', () => {
    for (const seed of [1, 2]) {
      const { db } = openDatabase(mkdtempSync(join(tmpdir(), 'ratchet-classes-')));
      writeVariedHistory(db, { runs: 150, days: 20, end, seed });
      const byTriggers = loadClassRecords(db, 30, end);
      // lint_error is no error class of the engine's: the history writes it, the suggestions leave it out.
      expect(byTriggers, `seed ${seed}`).toEqual(fromRows(db).filter((c) => c.errorClass !== ('lint_error' as string)));
      expect(byTriggers.some((c) => c.fixed > 0 && c.fixed < c.steps)).toBe(true);
      db.transaction(() => rebuildClassSummary(db))();
      expect(loadClassRecords(db, 30, end)).toEqual(byTriggers);
      db.close();
    }
  });
});
