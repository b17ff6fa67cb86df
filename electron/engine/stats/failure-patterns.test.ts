// The failure-pattern advice ("3 tasks repeatedly failed on null references → consider adding null checks"): unfixed failures grouped by what they share.
import { describe, expect, it } from 'vitest';
import { failurePatterns, type UnfixedFailure } from './failure-patterns';
import { improvementText } from './improvements';

const f = (runId: string, message: string, tests: string[] = [], files: string[] = []): UnfixedFailure => ({ runId, message, tests, files });

describe('failurePatterns', () => {
  it('groups unfixed failures of different tasks by their pattern, as seed 002 words it', () => {
    const out = failurePatterns([
      f('r1', "TypeError: Cannot read properties of null (reading 'hp')"),
      f('r2', "AttributeError: 'NoneType' object has no attribute 'health'"),
      f('r3', 'Invalid get index on base: null instance'),
      f('r4', 'expected 3, got 4'),
    ]).map(improvementText);
    expect(out[0]).toMatch(/^3 tasks repeatedly failed on null references .* → consider adding null checks/);
    // One task is not a pattern.
    expect(out.join('\n')).not.toMatch(/wrong values/);
  });

  it('names a test and a file that several tasks left failing', () => {
    const out = failurePatterns([
      f('r1', '1 test failed: player health', ['test/player.test.ts › player health'], ['src/player.ts']),
      f('r2', '1 test failed: player health', ['test/player.test.ts › player health'], ['src/player.ts']),
      f('r2', 'same run again', ['test/player.test.ts › player health'], ['src/player.ts']),
    ]).map(improvementText);
    expect(out).toContain(
      '2 tasks left the test "test/player.test.ts › player health" failing → look at that test and the code it checks before the next run: is it out of date or flaky?',
    );
    expect(out).toContain(
      '2 tasks left failures in src/player.ts unfixed → say in the step prompts what src/player.ts must do, or split the work on it into smaller steps',
    );
  });

  it('groups the same message with different values (got -1, got -2) as one', () => {
    const out = failurePatterns([f('r1', 'Health mismatch: expected 100, got -1'), f('r2', 'Health mismatch: expected 100, got -2')]).map(improvementText);
    expect(out.join('\n')).toMatch(/2 tasks repeatedly failed on wrong values/);
  });

  it('says nothing about failures no two tasks share', () => {
    expect(failurePatterns([f('r1', 'boom'), f('r2', 'bang')])).toEqual([]);
  });
});

describe('the failure patterns of a real store', () => {
  it('reads the last failure of each never-fixed step in the period, and the weekly report says the pattern', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openDatabase } = await import('../store/open-store');
    const { Store } = await import('../store/store');
    const { seedRun } = await import('../store/testing/seed-run');
    const { loadUnfixedFailures } = await import('./stats-load');
    const { weeklyReport } = await import('./stats-report');
    const { db } = openDatabase(mkdtempSync(join(tmpdir(), 'ratchet-patterns-')));
    const store = new Store(db);
    const fail = (runId: string, n: number, message: string, failures: unknown[]) => {
      const id = store.startAttempt({ runId, stepIndex: 1, n, agentKind: 'anthropic', model: 'm', prompt: 'p', preCommit: 'c' });
      store.finishAttempt(runId, id, {
        outcome: 'failed',
        errorClass: 'test_failure',
        errorMessage: message,
        summary: null,
        treeRef: null,
        treeSha: null,
        diff: null,
        failures,
        transcript: [],
        sessionId: null,
      });
    };
    const health = { name: 'player health', file: 'test/player.test.ts:12', message: "TypeError: Cannot read properties of null (reading 'hp')" };
    const runs = [seedRun(store), seedRun(store), seedRun(store)];
    for (const r of runs) {
      fail(r, 1, 'an earlier failure', []);
      fail(r, 2, "1 test failed: player health: TypeError: Cannot read properties of null (reading 'hp')", [health]);
      store.setStepStatus(r, 1, 'failed');
    }
    // A fixed step is not a pattern.
    const fixed = seedRun(store);
    fail(fixed, 1, "TypeError: Cannot read properties of null (reading 'hp')", [health]);
    const rows = loadUnfixedFailures(db, 7, new Date());
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ tests: ['test/player.test.ts › player health'], files: ['test/player.test.ts'] });
    const { markdown } = weeklyReport(db, 7, new Date(), { dailyUsd: null, preset: 'conservative' });
    expect(markdown).toMatch(/- 3 tasks repeatedly failed on null references .* → consider adding null checks/);
    expect(markdown).toContain('- 3 tasks left the test "test/player.test.ts › player health" failing');
    db.close();
  });
});
