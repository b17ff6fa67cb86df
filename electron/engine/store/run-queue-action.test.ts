// A queued resume keeps what the contract's runs.resume took (auto, skipStep, choices) and starts with it when claimed.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { openDatabase } from './open-store';
import { RunQueue } from './run-queue';
import { applyRunEvent } from '../run/apply-run-commands';
import { Store } from './store';
import { seedRun } from './testing/seed-run';

describe('a queued resume', () => {
  it('is claimed with the auto-progress, skip and recovery choices it was queued with', () => {
    const store = new Store(openDatabase(tempDir()).db, () => new Date('2026-01-01T00:00:00Z'));
    const runId = seedRun(store);
    store.setRunStatus(runId, 'running', null);
    store.setRunStatus(runId, 'paused', 'paused');
    const queue = new RunQueue(store, applyRunEvent(store));
    queue.enqueue(runId, { kind: 'resume', auto: 'phase', skipStep: true, choices: { dirty_tree: 'stash' } }, { reason: 'Queued' });
    expect(store.getRun(runId)?.status).toBe('queued');
    expect(queue.claim(runId)).toEqual({ kind: 'resume', auto: 'phase', skipStep: true, choices: { dirty_tree: 'stash' } });
    expect(store.getRun(runId)?.status).toBe('paused');
  });
});
