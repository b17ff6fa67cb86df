// Which engine events become OS notifications, and when they are held back (setting off, window focused).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEventDoc } from '../../shared/contract';

vi.mock('electron', () => import('./testing/fake-electron'));
const fake = await import('./testing/fake-electron');
const { createNotifier, noticeFor } = await import('./notifications');

beforeEach(() => fake.resetFakeElectron());

const ev = (type: string, payload: Record<string, unknown>): EngineEventDoc => ({ id: 1, runId: 'r1', at: '2025-01-01T00:00:00.000Z', type, payload });

describe('noticeFor', () => {
  it('names succeeded, failed, needs-you and budget alerts', () => {
    expect(noticeFor(ev('run.status', { status: 'succeeded' }), { task: 'Add health', step: null, errorClass: null })).toMatchObject({
      title: 'Run succeeded',
      body: expect.stringContaining('“Add health”'),
    });
    expect(
      noticeFor(ev('run.status', { status: 'failed', reason: 'step 2 failed: tests' }), {
        task: 'Add health',
        step: { index: 2, title: 'Tests' },
        errorClass: 'test_failure',
      }),
    ).toEqual({ runId: 'r1', title: 'Run failed', body: '“Add health” failed at step 2 “Tests”: Test failure.' });
    expect(noticeFor(ev('run.status', { status: 'paused', reason: 'step 1 "x" needs you: unknown error' }))).toEqual({
      runId: 'r1',
      title: 'Ratchet needs you',
      body: 'A run is paused, waiting for you.',
    });
    expect(noticeFor(ev('run.status', { status: 'waiting_approval' }))).toMatchObject({ title: 'Ratchet needs you' });
    expect(noticeFor(ev('budget.alert', { kind: 'daily', spentUsd: 40.5, limitUsd: 50 }))).toMatchObject({
      title: 'Budget alert',
      body: 'Daily budget: $40.50 of $50.00 spent.',
    });
  });

  it("never shows the run's stored reason, which quotes gate output and the agent (only the task, step, class and counts)", () => {
    const leak = 'step 1 failed: Failed with exit code 3: tok_9f3c1a77e2b54d0c';
    for (const status of ['failed', 'paused']) {
      const n = noticeFor(ev('run.status', { status, reason: leak }), { task: 'Leak', step: { index: 1, title: 'Plant' }, errorClass: 'unknown' });
      expect(n?.body).toContain('at step 1 “Plant”: Unknown error');
      expect(JSON.stringify(n)).not.toContain('tok_9f3c1a77e2b54d0c');
    }
  });

  it('stays quiet for everything else', () => {
    for (const e of [ev('run.status', { status: 'running' }), ev('run.status', { status: 'waiting' }), ev('attempt.finished', {}), ev('log', { text: 'x' })]) {
      expect(noticeFor(e)).toBeNull();
    }
  });
});

describe('createNotifier', () => {
  const succeeded = ev('run.status', { status: 'succeeded' });

  it('shows an OS notification with the run title when enabled and the window is not focused', async () => {
    const notify = createNotifier({
      enabled: async () => true,
      windowFocused: () => false,
      runFacts: async () => ({ task: 'Add health', step: null, errorClass: null }),
    });
    await notify(succeeded);
    expect(fake.Notification.shown).toEqual([{ title: 'Run succeeded', body: '“Add health” finished: every step passed its gates.' }]);
  });

  it('shows nothing when the setting is off or the window has focus', async () => {
    await createNotifier({ enabled: async () => false, windowFocused: () => false })(succeeded);
    await createNotifier({ enabled: async () => true, windowFocused: () => true })(succeeded);
    expect(fake.Notification.shown).toEqual([]);
  });

  it('never throws, even when reading the setting fails', async () => {
    const notify = createNotifier({
      enabled: async () => {
        throw new Error('db closed');
      },
      windowFocused: () => false,
    });
    await expect(notify(succeeded)).resolves.toBeUndefined();
  });

  it('reports a click with the run id', async () => {
    const onClick = vi.fn();
    const show = vi.fn((_n: unknown, click: () => void) => click());
    await createNotifier({ enabled: async () => true, windowFocused: () => false, onClick, show })(succeeded);
    expect(onClick).toHaveBeenCalledWith('r1');
  });
});
