// The scheduler's decision: slots, priority order, and runs that another process waits for.
import { describe, expect, it } from 'vitest';
import { runsToStart } from './run-scheduler';
import type { QueuedRun } from './store/run-queue';

const q = (id: string, ownerPid: number | null = null, ownerHost: string | null = null): QueuedRun => ({
  id, title: id, action: { kind: 'execute' }, priority: 0, queuedAt: '2026-01-01T00:00:00.000Z', ownerPid, ownerHost,
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
