// What-if over a real store: a run that succeeded on its second attempt would have failed with no retries.
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../shared/contract';
import { until } from '../../../shared/testing/until';
import { toCallError } from '../service/service';
import { flipGate } from '../testing/flip-gate';
import { makeRepo } from '../testing/temp-repo';
import type { WhatIfRow } from '../store/stats-queries';
import type { HistoryRun } from './what-if';
import { historyRuns, loadWhatIfHistory } from './what-if-history';
import { serviceHarness } from '../testing/service-harness';

const harness = serviceHarness();

describe('what-if over the store', () => {
  it('loads the attempts as they happened and replays them under another policy through stats.whatIf', async () => {
    const { engine, service } = await harness.start();
    const started = await dispatch(
      service.handlers,
      'runs.start',
      { repo: makeRepo(), title: 'flips once', steps: [{ title: 'One', gates: ['test'] }, { title: 'Two' }], gates: { test: flipGate(2) } },
      toCallError,
    );
    const runId = (started as { ok: true; value: { runId: string } }).value.runId;
    // The first failure waits out the preset's backoff; Retry now cuts it short.
    const e = engine;
    const s = service;
    await until(
      () => {
        const status = e.store.getRun(runId)?.status;
        if (status === 'waiting') void dispatch(s.handlers, 'runs.retryNow', { runId }, toCallError);
        return status === 'succeeded';
      },
      { ms: 30_000, describe: () => `the run to succeed (it is ${e.store.getRun(runId)?.status})` },
    );

    const history = loadWhatIfHistory(engine.store.db, '2000-01-01T00:00:00.000Z');
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ runId, title: 'flips once', status: 'succeeded' });
    expect(history[0]?.steps.map((s) => [s.index, s.attempts.map((a) => [a.outcome, a.errorClass])])).toEqual([
      [
        1,
        [
          ['failed', 'test_failure'],
          ['passed', null],
        ],
      ],
      [2, [['passed', null]]],
    ]);

    const r = await dispatch(service.handlers, 'stats.whatIf', { days: 7, maxRetries: 0 }, toCallError);
    expect(r).toMatchObject({
      ok: true,
      value: {
        runs: 1,
        actual: { succeeded: 1, failed: 0 },
        simulated: { succeeded: 0, failed: 1 },
        changed: [{ runId, actual: 'succeeded', simulated: 'failed', reason: 'step 1 "One" fails after attempt 1: 0 test failure retries used up' }],
      },
    });
    const same = await dispatch(service.handlers, 'stats.whatIf', { days: 7 }, toCallError);
    expect(same).toMatchObject({ ok: true, value: { simulated: { succeeded: 1 }, changed: [] } });
  }, 60_000);

  it("reads the period one run at a time: a run is replayed once its rows are read, never the whole period's rows held at once", () => {
    const row = (run: string, step: number, n: number): WhatIfRow => ({
      run_id: run,
      title: `task ${run}`,
      status: 'succeeded',
      reason: null,
      reason_code: null,
      step_index: step,
      step_title: `s${step}`,
      step_status: 'succeeded',
      n,
      outcome: n === 1 ? 'failed' : 'passed',
      error_class: n === 1 ? 'test_failure' : null,
      cost_usd: 0.1,
    });
    let pulled = 0;
    function* rows(): Generator<WhatIfRow> {
      for (const run of ['a', 'b', 'c'])
        for (const step of [1, 2])
          for (const n of [1, 2]) {
            pulled++;
            yield row(run, step, n);
          }
    }
    const runs = historyRuns(rows());
    const first = runs.next();
    // Run a's four rows, and the first of b's that ends it.
    expect(pulled).toBe(5);
    expect(first.value).toMatchObject({ runId: 'a', steps: [{ index: 1 }, { index: 2 }] });
    expect((first.value as HistoryRun).steps[0]!.attempts.map((x) => x.outcome)).toEqual(['failed', 'passed']);
    expect([...runs].map((r) => r.runId)).toEqual(['b', 'c']);
    expect(pulled).toBe(12);
  });
});
