import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPricing } from '../agents/pricing';
import { DEFAULT_PRICING_FILE } from '../engine';
import { openDatabase } from '../store/open-store';
import { newId, Store } from '../store/store';
import { BLANK_FINISH } from '../store/testing/blank-finish';
import { tempDir } from '../testing/temp-repo';
import { WorkflowFile } from '../workflow/schema';
import { estimateFor, loadEstimateHistory, workflowKey } from './estimate-load';

const pricing = loadPricing(DEFAULT_PRICING_FILE);
const MODEL = 'claude-sonnet-5-5';
const workflow = WorkflowFile.parse({ steps: [{ title: 'one' }, { title: 'two' }] });

/** A finished run of `repo`/`key` whose steps each spend `outputTokens` per attempt (priced), failing `fails[i]` times first. */
function writeRun(
  store: Store,
  clock: { t: number },
  o: { repo: string; key: string; outputTokens: number; fails?: number[]; status?: 'succeeded' | 'failed' | 'paused' },
) {
  const runId = newId();
  store.createRun({
    runId,
    repoPath: o.repo,
    repoName: 'repo',
    title: 'task',
    description: '',
    workflow,
    baseBranch: 'main',
    baseCommit: '0'.repeat(40),
    branch: `ratchet/${runId}`,
    worktree: `/tmp/${runId}`,
    workflowKey: o.key,
  });
  store.setRunStatus(runId, 'running', null);
  let cost = 0;
  for (let s = 1; s <= 2; s++) {
    const tries = 1 + (o.fails?.[s - 1] ?? 0);
    for (let n = 1; n <= tries; n++) {
      const id = store.startAttempt({ runId, stepIndex: s, n, agentKind: 'anthropic', model: MODEL, prompt: 'p', preCommit: 'a'.repeat(40) });
      const usd = (o.outputTokens * 10) / 1e6;
      cost += usd;
      store.recordApiCall(runId, id, { model: MODEL, inputTokens: 0, outputTokens: o.outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: usd });
      clock.t += 3 * 60_000;
      if (n < tries) store.finishAttempt(runId, id, { ...BLANK_FINISH, outcome: 'failed', errorClass: 'test_failure' });
      else store.checkpointStep(runId, id, s, { ...BLANK_FINISH, outcome: 'passed' }, 'c'.repeat(40));
    }
  }
  store.setRunStatus(runId, o.status ?? 'succeeded', null, { finished: true });
  clock.t += 3_600_000;
  return { runId, cost };
}

function fresh() {
  const clock = { t: Date.parse('2026-06-01T09:00:00Z') };
  const { db } = openDatabase(join(tempDir(), 'home'));
  return { db, store: new Store(db, () => new Date(clock.t)), clock };
}

describe('the estimate from the store', () => {
  it('after five runs of the same workflow, its median is within a third of theirs and a sixth like them ends inside its range', () => {
    const { db, store, clock } = fresh();
    const runs = [40_000, 52_000, 47_000, 61_000, 44_000].map((t, i) =>
      writeRun(store, clock, { repo: '/r', key: 'ratchet.yml', outputTokens: t, fails: i === 2 ? [1, 0] : [] }),
    );
    // Another workflow and another repository, far dearer: not this one's history.
    writeRun(store, clock, { repo: '/r', key: 'other.yml', outputTokens: 900_000 });
    writeRun(store, clock, { repo: '/elsewhere', key: 'ratchet.yml', outputTokens: 900_000 });
    const est = estimateFor(db, { repoRoot: '/r', workflowFile: '/r/ratchet.yml', workflow, pricing });
    expect(est.confidence).toBe('ok');
    expect(est.basis.runs).toBe(5);
    const costs = runs.map((r) => r.cost).sort((x, y) => x - y);
    const median = costs[2] as number;
    expect(Math.abs(est.usd.p50 - median) / median).toBeLessThan(1 / 3);
    const sixth = writeRun(store, clock, { repo: '/r', key: 'ratchet.yml', outputTokens: 50_000 });
    expect(sixth.cost).toBeLessThanOrEqual(est.usd.p90);
    expect(sixth.cost).toBeGreaterThan(est.usd.p50 / 3);
    // Two steps of one three-minute attempt each.
    expect(est.minutes.p50).toBeGreaterThanOrEqual(6);
    db.close();
  });

  it('with fewer runs of this workflow reads the whole store (low), with none the plan alone (none), and never an unfinished run', () => {
    const { db, store, clock } = fresh();
    expect(estimateFor(db, { repoRoot: '/r', workflowFile: '/r/ratchet.yml', workflow, pricing })).toMatchObject({ confidence: 'none', basis: { runs: 0 } });
    writeRun(store, clock, { repo: '/elsewhere', key: 'ratchet.yml', outputTokens: 10_000 });
    writeRun(store, clock, { repo: '/r', key: 'ratchet.yml', outputTokens: 10_000, status: 'failed' });
    writeRun(store, clock, { repo: '/r', key: 'ratchet.yml', outputTokens: 10_000, status: 'paused' });
    const history = loadEstimateHistory(db, '/r', 'ratchet.yml');
    expect(history.similar).toHaveLength(1);
    expect(history.store).toHaveLength(1);
    expect(history.similar[0]!.attempts).toHaveLength(2);
    expect(history.similar[0]!.attempts[0]!.durationMs).toBe(3 * 60_000);
    expect(estimateFor(db, { repoRoot: '/r', workflowFile: '/r/ratchet.yml', workflow, pricing })).toMatchObject({ confidence: 'low', basis: { runs: 2 } });
    db.close();
  });

  it("names a workflow by its file's path inside the repository, else by the path as given", () => {
    expect(workflowKey('/r', '/r/ratchet.yml')).toBe('ratchet.yml');
    expect(workflowKey('/r/', '/r/.ratchet/workflow.yml')).toBe('.ratchet/workflow.yml');
    expect(workflowKey('/r', '/elsewhere/flow.yml')).toBe('/elsewhere/flow.yml');
    expect(workflowKey('/r', '(written in the app)')).toBe('(written in the app)');
  });
});
