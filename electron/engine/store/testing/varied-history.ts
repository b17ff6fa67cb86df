// Test helper: a few weeks of varied history written through the Store's own methods (runs that succeed, fail, get
// interrupted and resumed, retries with decisions, flaky passes, unknown prices, revised plans, test-first steps with
// their red attempt, attempts cut by a stop and carried on), on a moving clock.
import { WorkflowFile } from '../../workflow/schema';
import { newId, Store } from '../store';
import { BLANK_FINISH } from './blank-finish';
import type Database from 'better-sqlite3';
import { seededRandom } from '../../../../shared/seeded-random';

/** A tiny deterministic random source, so a failing comparison can be replayed. */
export const rng = seededRandom;

const CLASSES = ['test_failure', 'compilation_error', 'timeout', 'lint_error'] as const;

/** Writes `runs` runs spread over `days` days before `end` into a store opened on `db`; returns the clock's final time. */
export function writeVariedHistory(db: Database.Database, opts: { runs: number; days: number; end: Date; seed?: number }): void {
  const rand = rng(opts.seed ?? 7);
  // Test-first steps and cut attempts draw from their own source, so the rest of a seed's history stays as it was.
  const extra = rng((opts.seed ?? 7) + 1000);
  let t = opts.end.getTime() - opts.days * 86_400_000;
  const step = (opts.days * 86_400_000) / opts.runs;
  const store = new Store(db, () => new Date(t));
  const tick = () => (t += Math.floor(rand() * 60_000));
  for (let r = 0; r < opts.runs; r++) {
    t = opts.end.getTime() - opts.days * 86_400_000 + r * step;
    const runId = newId();
    const nSteps = 1 + Math.floor(rand() * 4);
    store.createRun({
      runId,
      repoPath: `/repo/${r % 3}`,
      repoName: 'repo',
      title: `Task ${r % 5}`,
      description: '',
      workflow: WorkflowFile.parse({ steps: Array.from({ length: nSteps }, (_, i) => ({ title: `step ${i + 1}` })) }),
      baseBranch: 'main',
      baseCommit: '0'.repeat(40),
      branch: `ratchet/r-${runId}`,
      worktree: `/tmp/wt-${runId}`,
    });
    store.setRunStatus(runId, 'running', null);
    let runFailed = false;
    for (let s = 1; s <= nSteps && !runFailed; s++) {
      const tries = 1 + Math.floor(rand() * rand() * 5);
      // A test-first step: its test attempt first (sometimes one that wrote no test, retried), kept as `red`.
      const before: Array<'tdd_violation' | 'red'> = extra() < 0.2 ? (extra() < 0.3 ? ['tdd_violation', 'red'] : ['red']) : [];
      before.forEach((kind, i) => {
        tick();
        const id = store.startAttempt({
          runId,
          stepIndex: s,
          n: i + 1,
          agentKind: 'anthropic',
          model: 'claude-sonnet-5-5',
          prompt: `test first ${r}/${s}`,
          preCommit: 'a'.repeat(40),
        });
        store.recordApiCall(runId, id, {
          model: 'claude-sonnet-5-5',
          inputTokens: 800,
          outputTokens: 100,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: Math.round(extra() * 1e5) / 1e6,
        });
        const done = BLANK_FINISH;
        if (kind === 'red') store.finishAttempt(runId, id, { ...done, outcome: 'red', summary: 'the new test fails, as it should' });
        else {
          store.finishAttempt(runId, id, { ...done, outcome: 'failed', errorClass: 'tdd_violation', errorMessage: 'no test file changed' });
          store.recordDecision(runId, id, s, i + 1, { action: 'retry', reason: 'retrying', delayS: 0, overrides: {} });
        }
      });
      for (let k = 1; k <= tries; k++) {
        const n = before.length + k;
        tick();
        const model = rand() < 0.05 ? 'unpriced-model' : 'claude-sonnet-5-5';
        const id = store.startAttempt({ runId, stepIndex: s, n, agentKind: 'anthropic', model, prompt: `prompt ${r}/${s}/${n}`, preCommit: 'a'.repeat(40) });
        for (let c = 0; c < 1 + Math.floor(rand() * 3); c++) {
          tick();
          store.recordApiCall(runId, id, {
            model,
            inputTokens: 1000,
            outputTokens: 200,
            cacheReadTokens: 500,
            cacheWriteTokens: 100,
            costUsd: model === 'unpriced-model' ? null : Math.round(rand() * 1e5) / 1e6,
          });
        }
        const last = k === tries;
        const roll = rand();
        const finish = {
          errorClass: null,
          errorMessage: null,
          summary: null,
          treeRef: null,
          treeSha: null,
          diff: rand() < 0.5 ? `diff ${r}` : null,
          failures: [],
          transcript: [{ kind: 'text', text: `t ${r}/${s}/${n}` }],
          sessionId: null,
        };
        if (last && roll < 0.1) {
          // Interrupted mid-attempt: the process died; a later start closes it.
          store.closeDeadAttempts(runId);
          store.setRunStatus(runId, 'interrupted', 'stopped');
          runFailed = true;
        } else if (last && roll < 0.25) {
          const errorClass = CLASSES[Math.floor(rand() * CLASSES.length)] as string;
          store.finishAttempt(runId, id, { ...finish, outcome: 'failed', errorClass: errorClass as never, errorMessage: 'gave up' });
          store.recordDecision(runId, id, s, n, { action: 'fatal', reason: 'max retries', delayS: 0, overrides: {} });
          store.setStepStatus(runId, s, 'failed');
          store.setRunStatus(runId, 'failed', 'step failed', { finished: true });
          runFailed = true;
        } else if (last) {
          if (rand() < 0.1) store.checkpointStep(runId, id, s, { ...finish, outcome: 'flaky' }, 'c'.repeat(40));
          else store.checkpointStep(runId, id, s, { ...finish, outcome: 'passed' }, 'c'.repeat(40));
        } else {
          const errorClass = CLASSES[Math.floor(rand() * CLASSES.length)] as string;
          const action = rand() < 0.9 ? 'retry' : 'escalate';
          // Cut by a stop (closed as interrupted when the run resumes): the next attempt carries on.
          if (extra() < 0.08) store.closeDeadAttempts(runId);
          else {
            store.finishAttempt(runId, id, { ...finish, outcome: 'failed', errorClass: errorClass as never, errorMessage: 'boom' });
            store.recordDecision(runId, id, s, n, { action, reason: 'retrying', delayS: 0, overrides: {} });
          }
        }
      }
    }
    if (!runFailed) store.setRunStatus(runId, rand() < 0.1 ? 'paused' : 'succeeded', null, { finished: true });
    // Some runs get their plan revised afterwards (steps reset and added), or a step demoted by reconciliation.
    if (rand() < 0.1) store.revisePlan(runId, [{ title: 'step 1' }, { title: 'a new step' }] as never);
    else if (rand() < 0.05) store.demoteStep(runId, 1);
  }
}
