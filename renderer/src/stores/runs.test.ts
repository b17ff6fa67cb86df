// @vitest-environment jsdom
// The runs store follows other processes live: a run another process (the CLI) creates, and one whose process died.
import { beforeEach, describe, expect, it } from 'vitest';
import { getApi } from '../api/client';
import { RUN_IDS } from '../../dev/fixtures-runs';
import type { FakeBridge } from '../../dev/fake-bridge';
import { flush, installFake } from '../test-helpers';
import { connectEvents } from './engine-events';
import { useRuns } from './runs';

let fake: FakeBridge;

beforeEach(() => {
  fake = installFake();
  connectEvents(getApi());
});

describe('runs store, live', () => {
  it('lists a run another process created as soon as its run.created arrives', async () => {
    await useRuns.getState().load();
    const source = fake.runs.get(RUN_IDS.health)!;
    const id = 'r-from-cli';
    fake.runs.set(id, { doc: { ...source.doc, id }, summary: { ...source.summary, id, title: 'Started in a terminal', status: 'running' } });
    fake.engineEvent(id, 'run.created', { repo: source.doc.repo, branch: 'ratchet/x', worktree: '/w', baseCommit: source.doc.baseCommit, steps: 3 });
    await flush();
    expect(useRuns.getState().runs.data.find((r) => r.id === id)).toMatchObject({ title: 'Started in a terminal', status: 'running' });
  });

  it('puts a run whose process died into the interrupted list, and takes it out when it resumes', async () => {
    await Promise.all([useRuns.getState().load(), useRuns.getState().loadInterrupted()]);
    const id = RUN_IDS.health;
    expect(useRuns.getState().interrupted.data.some((r) => r.id === id)).toBe(false);
    const r = fake.runs.get(id)!;
    r.summary = { ...r.summary, status: 'interrupted' };
    fake.engineEvent(id, 'run.status', { status: 'interrupted', reason: 'The process running this run stopped during it.', wakeAt: null });
    await flush();
    expect(useRuns.getState().interrupted.data.map((x) => x.id)).toContain(id);
    r.summary = { ...r.summary, status: 'running' };
    fake.engineEvent(id, 'run.status', { status: 'running', reason: null, wakeAt: null });
    expect(useRuns.getState().interrupted.data.map((x) => x.id)).not.toContain(id);
  });
});
