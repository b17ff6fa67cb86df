// The scheduler: its decision (slots, priority order, runs that another process waits for) and its stop of a run no process here executes.
import { describe, expect, it } from 'vitest';
import { createScheduler, runsToStart } from './run-scheduler';
import { openDatabase } from '../store/open-store';
import { RunQueue, type QueuedRun } from '../store/run-queue';
import { applyRunEvent } from '../run/apply-run-commands';
import { Store } from '../store/store';
import { seedRun } from '../store/testing/seed-run';
import { tempDir } from '../testing/temp-repo';

const q = (id: string, ownerPid: number | null = null, ownerHost: string | null = null): QueuedRun => ({
  id,
  title: id,
  action: { kind: 'execute' },
  priority: 0,
  queuedAt: '2026-01-01T00:00:00.000Z',
  ownerPid,
  ownerHost,
});
const self = { pid: 100, host: 'h' };

describe('runsToStart', () => {
  it('fills the free slots in queue order and no more', () => {
    expect(runsToStart({ queued: [q('a'), q('b'), q('c')], active: 0, concurrency: 2, self, alive: () => true }).map((r) => r.id)).toEqual(['a', 'b']);
    expect(runsToStart({ queued: [q('a'), q('b')], active: 1, concurrency: 2, self, alive: () => true }).map((r) => r.id)).toEqual(['a']);
    expect(runsToStart({ queued: [q('a')], active: 3, concurrency: 2, self, alive: () => true })).toEqual([]);
  });

  it('keeps a slot for a run a live CLI process waits for, and takes over the run of one that died', () => {
    const queued = [q('cli', 200, 'h'), q('b'), q('c')];
    expect(runsToStart({ queued, active: 0, concurrency: 2, self, alive: () => true }).map((r) => r.id)).toEqual(['b']);
    expect(runsToStart({ queued, active: 0, concurrency: 2, self, alive: (pid) => pid !== 200 }).map((r) => r.id)).toEqual(['cli', 'b']);
    // The waiting process itself starts its own run.
    expect(runsToStart({ queued, active: 1, concurrency: 2, self: { pid: 200, host: 'h' }, alive: () => true }).map((r) => r.id)).toEqual(['cli']);
    // Another host's waiter is never second-guessed.
    expect(runsToStart({ queued: [q('far', 1, 'other')], active: 0, concurrency: 1, self, alive: () => false })).toEqual([]);
  });
});

describe('the scheduler’s stop of a run no process here executes', () => {
  it('cancels a run waiting to retry, takes a queued one out of the queue, and refuses, leaving it as it is, a paused one (the steering table)', async () => {
    const store = new Store(openDatabase(tempDir()).db, () => new Date('2026-01-01T00:00:00Z'));
    const queue = new RunQueue(store, applyRunEvent(store));
    const never = () => new Promise<never>(() => undefined);
    const scheduler = createScheduler(
      { execute: never, retry: never, resume: never },
      { queue, concurrency: () => 0, self, onError: () => undefined, pollMs: 60_000 },
    );
    try {
      const waiting = seedRun(store);
      runLifeOf(store, waiting)('running');
      runLifeOf(store, waiting)('waiting');
      await scheduler.stop(waiting, store);
      expect(store.getRun(waiting)).toMatchObject({
        status: 'cancelled',
        reason: 'Stopped by you while it waited to retry. Resume to continue, or start again.',
      });
      expect(store.getRun(waiting)?.finished_at).not.toBeNull();

      const queued = seedRun(store);
      scheduler.request(queued, { kind: 'execute' });
      expect(store.getRun(queued)?.status).toBe('queued');
      await scheduler.stop(queued, store);
      expect(store.getRun(queued)).toMatchObject({ status: 'cancelled', reason: 'Stopped by you before it started (removed from the queue).' });

      const paused = seedRun(store);
      runLifeOf(store, paused)('paused');
      // Nothing runs it: the steering table refuses the Stop, in its words, and the run stays as it is.
      await expect(scheduler.stop(paused, store)).rejects.toMatchObject({
        code: 'bad_arguments',
        message: `Run ${paused} is paused; there is nothing to stop.`,
      });
      expect(store.getRun(paused)).toMatchObject({ status: 'paused', reason: 'test' });
    } finally {
      await scheduler.close();
    }
  });
});

/** Puts a seeded run in a status, as a fixture (the store's table still checks the change). */
function runLifeOf(store: Store, runId: string) {
  return (status: 'running' | 'waiting' | 'paused') =>
    store.setRunStatus(runId, status, 'test', status === 'waiting' ? { wakeAt: '2026-01-01T01:00:00Z' } : {});
}
