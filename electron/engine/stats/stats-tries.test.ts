// What counts as a try and as a retry, through the store's summary triggers: a test-first step's red attempt is neither
// (its cost is the step's, not retry cost), nor is an attempt cut by a stop; a store written before the rule is recomputed.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStats, loadStatsFromRows } from './stats-load';
import { migrate } from '../store/migration';
import { MIGRATIONS } from '../store/migrations';
import { openDatabase } from '../store/open-store';
import { newId, Store } from '../store/store';
import { WorkflowFile } from '../workflow/schema';

const end = new Date('2026-11-21T15:30:00Z');
const FINISH = { errorClass: null, errorMessage: null, summary: null, treeRef: null, treeSha: null, diff: null, failures: [], transcript: [], sessionId: null };
type Outcome = 'red' | 'passed' | 'failed' | 'interrupted';

/** One run of one step per entry, each step's attempts in order (each with one API call of `cost`), on `end`'s day. */
function writeSteps(db: Database.Database, steps: Array<Array<{ outcome: Outcome; cost: number }>>): { runId: string } {
  let t = end.getTime() - 3_600_000;
  const store = new Store(db, () => new Date((t += 1000)));
  const runId = newId();
  store.createRun({
    runId,
    repoPath: '/repo',
    repoName: 'repo',
    title: 'Test first',
    description: '',
    workflow: WorkflowFile.parse({ steps: steps.map((_, i) => ({ title: `step ${i + 1}` })) }),
    baseBranch: 'main',
    baseCommit: '0'.repeat(40),
    branch: `ratchet/r-${runId}`,
    worktree: `/tmp/wt-${runId}`,
  });
  store.setRunStatus(runId, 'running', null);
  steps.forEach((attempts, i) => {
    const s = i + 1;
    attempts.forEach((a, k) => {
      const n = k + 1;
      const id = store.startAttempt({ runId, stepIndex: s, n, agentKind: 'anthropic', model: 'claude-sonnet-5-5', prompt: 'p', preCommit: 'a'.repeat(40) });
      store.recordApiCall(runId, id, {
        model: 'claude-sonnet-5-5',
        inputTokens: 100,
        outputTokens: 10,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: a.cost,
      });
      if (a.outcome === 'passed') store.checkpointStep(runId, id, s, { ...FINISH, outcome: 'passed' }, 'c'.repeat(40));
      else if (a.outcome === 'interrupted') store.closeDeadAttempts(runId);
      else if (a.outcome === 'red') store.finishAttempt(runId, id, { ...FINISH, outcome: 'red', summary: 'the new test fails, as it should' });
      else {
        store.finishAttempt(runId, id, { ...FINISH, outcome: 'failed', errorClass: n === 1 ? 'tdd_violation' : 'test_failure', errorMessage: 'boom' });
        store.recordDecision(runId, id, s, n, { action: 'retry', reason: 'retrying', delayS: 0, overrides: {} });
      }
    });
  });
  store.setRunStatus(runId, 'succeeded', null, { finished: true });
  return { runId };
}

const tries = (db: Database.Database, runId: string) =>
  (db.prepare('SELECT tries FROM step_runs WHERE run_id = ? ORDER BY step_index').all(runId) as Array<{ tries: number }>).map((r) => r.tries);

describe('tries and retries in the stored summary', () => {
  it("a test-first step whose implementation passes first time: 0 retries and no retry cost, the red attempt's cost in the total", () => {
    const { db } = openDatabase(mkdtempSync(join(tmpdir(), 'ratchet-tries-')));
    const { runId } = writeSteps(db, [
      [
        { outcome: 'red', cost: 0.2 },
        { outcome: 'passed', cost: 0.1 },
      ],
    ]);
    expect(tries(db, runId)).toEqual([1]);
    const s = loadStats(db, 7, end, null);
    expect(s.retryBreakdown).toEqual({ r0: 1, r1: 0, r2: 0, r3plus: 0, failedAfterMax: 0 });
    expect(s.avgAttemptsPerSuccess).toBe(1);
    expect(s.savedByRetries).toBe(0);
    expect(s.retryCostUsd).toBe(0);
    expect(s.totalCostUsd).toBeCloseTo(0.3, 9);
    expect(loadStatsFromRows(db, 7, end, null)).toEqual(s);
    db.close();
  });

  it('after the red attempt, a failed implementation is the first try and the next one a retry; a red attempt after a failed test attempt costs no retry', () => {
    const { db } = openDatabase(mkdtempSync(join(tmpdir(), 'ratchet-tries-')));
    const { runId } = writeSteps(db, [
      [
        { outcome: 'red', cost: 0.2 },
        { outcome: 'failed', cost: 0.1 },
        { outcome: 'passed', cost: 0.05 },
      ],
      // The test attempt wrote no test (a tdd_violation, retried), then its test failed as it should, then the implementation passed.
      [
        { outcome: 'failed', cost: 0.01 },
        { outcome: 'red', cost: 0.02 },
        { outcome: 'passed', cost: 0.04 },
      ],
      // Cut by a stop, then carried on: no try, no retry.
      [
        { outcome: 'interrupted', cost: 0.3 },
        { outcome: 'passed', cost: 0.5 },
      ],
    ]);
    expect(tries(db, runId)).toEqual([2, 2, 1]);
    const s = loadStats(db, 7, end, null);
    expect(s.retryBreakdown).toEqual({ r0: 1, r1: 2, r2: 0, r3plus: 0, failedAfterMax: 0 });
    expect(s.retryCostUsd).toBeCloseTo(0.05 + 0.04, 9);
    expect(s.totalCostUsd).toBeCloseTo(0.2 + 0.1 + 0.05 + 0.01 + 0.02 + 0.04 + 0.3 + 0.5, 9);
    expect(loadStatsFromRows(db, 7, end, null)).toEqual(s);
    db.close();
  });

  it('a store written under the old rule (schema 15) is recomputed by the migration', () => {
    const home = mkdtempSync(join(tmpdir(), 'ratchet-tries-'));
    const old = new Database(join(home, 'ratchet.db'));
    old.pragma('journal_mode = WAL');
    // The old rule is migration 16's absence; the runs column today's Store writes with a status (17) is there.
    migrate(
      old,
      MIGRATIONS.filter((m) => m.version <= 15 || m.version === 17),
    );
    const { runId } = writeSteps(old, [
      [
        { outcome: 'red', cost: 0.2 },
        { outcome: 'passed', cost: 0.1 },
      ],
      [
        { outcome: 'interrupted', cost: 0.3 },
        { outcome: 'passed', cost: 0.5 },
      ],
    ]);
    // What the old triggers kept: the red attempt a try, the implementation's cost and the resumed attempt's retry cost.
    expect(tries(old, runId)).toEqual([2, 1]);
    expect(loadStats(old, 7, end, null).retryBreakdown.r1).toBe(1);
    expect(loadStats(old, 7, end, null).retryCostUsd).toBeCloseTo(0.6, 9);
    old.close();

    const { db } = openDatabase(home);
    expect(tries(db, runId)).toEqual([1, 1]);
    const s = loadStats(db, 7, end, null);
    expect(s.retryBreakdown).toEqual({ r0: 2, r1: 0, r2: 0, r3plus: 0, failedAfterMax: 0 });
    expect(s.retryCostUsd).toBe(0);
    expect(s.totalCostUsd).toBeCloseTo(1.1, 9);
    expect(loadStatsFromRows(db, 7, end, null)).toEqual(s);
    // And the triggers it put back keep counting by the new rule.
    writeSteps(db, [
      [
        { outcome: 'red', cost: 0.2 },
        { outcome: 'passed', cost: 0.1 },
      ],
    ]);
    expect(loadStats(db, 7, end, null).retryBreakdown.r0).toBe(3);
    expect(loadStats(db, 7, end, null).retryCostUsd).toBe(0);
    db.close();
  });
});
