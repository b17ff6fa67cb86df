import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateRecordLine } from '../../../shared/estimate-text';
import { setRunEstimate } from '../store/estimate-queries';
import { openDatabase } from '../store/open-store';
import { Store } from '../store/store';
import { BLANK_FINISH } from '../store/testing/blank-finish';
import { seedRun } from '../store/testing/seed-run';
import { weeklyReport } from './stats-report';
import { tempDir } from '../testing/temp-repo';
import { estimateRecord, loadEstimateRecord } from './estimate-record';

const est = (p50: number, p90: number) => ({ usd: { p50, p90 }, minutes: { p50: 5, p90: 10 }, basis: { runs: 5 }, confidence: 'ok' as const });

describe('how the estimates held', () => {
  it('counts the runs that cost at most their p90 and the median |log(actual ÷ p50)|', () => {
    const r = estimateRecord([
      { estimate: est(1, 2), costUsd: 1 },
      { estimate: est(1, 2), costUsd: 2 },
      { estimate: est(1, 2), costUsd: 4 },
    ]);
    expect(r).toEqual({ runs: 3, withinP90: 2, medianError: Math.round(Math.log(2) * 1000) / 1000 });
    expect(estimateRecordLine(r)).toBe(
      'Of the last 3 runs with an estimate, 2 cost at most its 90th percentile; the median estimate was typically off by ×2.0.',
    );
    expect(estimateRecord([])).toEqual({ runs: 0, withinP90: 0, medianError: null });
  });

  it('reads the finished runs that started with an estimate from the store, and the weekly report says it', () => {
    const { db } = openDatabase(join(tempDir(), 'home'));
    const store = new Store(db);
    const finished = (usd: number, status: 'succeeded' | 'failed' | null, estimate = est(0.5, 1)) => {
      const runId = seedRun(store, 1);
      setRunEstimate(db, runId, JSON.stringify(estimate));
      store.setRunStatus(runId, 'running', null);
      const id = store.startAttempt({ runId, stepIndex: 1, n: 1, agentKind: 'anthropic', model: 'm', prompt: 'p', preCommit: 'a'.repeat(40) });
      store.recordApiCall(runId, id, { model: 'm', inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: usd });
      store.finishAttempt(runId, id, { ...BLANK_FINISH, outcome: status === 'failed' ? 'failed' : 'passed' });
      if (status) store.setRunStatus(runId, status, null, { finished: true });
    };
    finished(0.4, 'succeeded');
    finished(0.9, 'failed');
    finished(3, 'succeeded');
    finished(50, null); // still running: not counted
    seedRun(store, 1); // no estimate (a run from before): not counted
    expect(loadEstimateRecord(db)).toMatchObject({ runs: 3, withinP90: 2 });
    const report = weeklyReport(db, 7, new Date(), { dailyUsd: null, preset: 'conservative' });
    expect(report.summary.estimates).toMatchObject({ runs: 3, withinP90: 2 });
    expect(report.markdown).toContain('## Estimates\n\nOf the last 3 runs with an estimate, 2 cost at most its 90th percentile');
    db.close();
  });
});
