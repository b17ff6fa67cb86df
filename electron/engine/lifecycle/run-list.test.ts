// An interrupted run must not look alive: marking it interrupted ends its running attempt where the
// attempt was last seen (not now), and says so with an event the app applies live.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { openDatabase } from '../store/open-store';
import { Store } from '../store/store';
import { seedRun } from '../store/testing/seed-run';
import { markInterrupted } from './run-list';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('markInterrupted', () => {
  it('ends the running attempt as interrupted at its last sign of life, with an attempt.finished event saying when', () => {
    let t = T0;
    const store = new Store(openDatabase(tempDir()).db, () => new Date(t));
    const runId = seedRun(store);
    store.setRunStatus(runId, 'running', null);
    const attemptId = store.startAttempt({ runId, stepIndex: 1, n: 1, agentKind: 'anthropic', model: 'm', prompt: 'p', preCommit: '0'.repeat(40) });
    t = T0 + 8_000;
    store.event(runId, 'gate.started', { attemptId, gate: 'test', command: 'npm test' });
    // A process that died 8 s into the attempt; noticed 13 minutes later.
    store.claimRun(runId, 2 ** 22 + 4242, 'this-host');
    t = T0 + 13 * 60_000;
    const seen: Array<{ type: string; payload: Record<string, unknown> }> = [];
    store.onEvent((e) => seen.push(e));
    expect(markInterrupted(store, { pid: process.pid, host: 'this-host' }, t)).toEqual([runId]);
    const a = store.getAttempts(runId).find((x) => x.id === attemptId)!;
    expect(a.outcome).toBe('interrupted');
    expect(Date.parse(a.finished_at!) - Date.parse(a.started_at)).toBe(8_000);
    const finished = seen.find((e) => e.type === 'attempt.finished');
    expect(finished?.payload).toMatchObject({ attemptId, outcome: 'interrupted', finishedAt: new Date(T0 + 8_000).toISOString() });
    // The attempt ends before the run says it was interrupted, as it happened.
    expect(seen.map((e) => e.type)).toEqual(['attempt.finished', 'run.status']);
  });
});
