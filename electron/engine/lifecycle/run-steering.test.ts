// One steering table, every user: the local engine's Stop and Raise budget (like its Resume and Retry) refuse exactly
// what shared/run-steering.ts refuses, for a run in each status, with the table's own words. A run the app would not
// offer to stop is one the engine refuses to stop, and the other way round.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStatus } from '../../../shared/domain';
import { canSteer, RUN_STEERING, steeringRefusal, type Steer } from '../../../shared/run-steering';
import { createEngine } from '../engine';
import { RatchetError } from '../errors';
import { RunQueue } from '../store/run-queue';
import { applyRunEvent } from '../run/apply-run-commands';
import { seedRun } from '../store/testing/seed-run';
import { tempDir } from '../testing/temp-repo';
import { createScheduler } from './run-scheduler';

/** What the call threw, as `{ code, message }`, or null when it went through. */
async function refusal(call: () => unknown): Promise<{ code: string; message: string } | null> {
  try {
    await call();
    return null;
  } catch (e) {
    if (!(e instanceof RatchetError)) throw e;
    return { code: e.code, message: e.message };
  }
}

describe('the local engine steers by the steering table', () => {
  it('refuses a Stop and a Raise budget exactly where shared/run-steering.ts does, in its words', async () => {
    const engine = createEngine({ home: join(tempDir('ratchet-steer-'), 'home'), env: {}, sandbox: 'off' });
    const store = engine.store;
    const never = () => new Promise<never>(() => undefined);
    const scheduler = createScheduler(
      { execute: never, retry: never, resume: never },
      {
        queue: new RunQueue(store, applyRunEvent(store)),
        concurrency: () => 0,
        self: { pid: process.pid, host: 'test' },
        onError: () => undefined,
        pollMs: 60_000,
      },
    );
    try {
      for (const status of RunStatus.options) {
        const at = (): string => {
          const runId = seedRun(store);
          // Any status, as a run can be found in it (the transition table is the store's concern, not this test's).
          store.db
            .prepare('UPDATE runs SET status = ?, wake_at = ?, queue_action = ? WHERE id = ?')
            .run(status, status === 'waiting' ? '2099-01-01T00:00:00Z' : null, status === 'queued' ? JSON.stringify({ kind: 'execute' }) : null, runId);
          return runId;
        };
        const stopped = at();
        expect(await refusal(() => scheduler.stop(stopped, store)), `stop a ${status} run`).toEqual(steeringRefusal(`Run ${stopped}`, status, 'stop'));
        const raised = at();
        expect(await refusal(() => engine.raiseBudget(raised, 100)), `raise the budget of a ${status} run`).toEqual(
          steeringRefusal(`Run ${raised}`, status, 'raiseBudget'),
        );
        if (canSteer(status, 'raiseBudget')) expect(store.getRun(raised)?.task_budget_usd).toBe(100);
      }
      // A verdict changed in the table changes the engine's answer: it reads the table, not status strings of its own.
      const row = RUN_STEERING.paused as Record<'stop' | 'raiseBudget', Steer>;
      const kept = { ...row };
      try {
        row.raiseBudget = 'over';
        row.stop = 'yes';
        const runId = seedRun(store);
        store.db.prepare("UPDATE runs SET status = 'paused' WHERE id = ?").run(runId);
        expect((await refusal(() => engine.raiseBudget(runId, 100)))?.code).toBe('bad_arguments');
        expect(await refusal(() => scheduler.stop(runId, store))).toBeNull();
      } finally {
        Object.assign(row, kept);
      }
    } finally {
      await scheduler.close();
      engine.close();
    }
  });
});
