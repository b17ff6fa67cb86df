// @vitest-environment jsdom
// Store tests against the fake bridge: events reach the stores through the one dispatcher and patch only what they name.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getApi } from '../api/client';
import { RUN_IDS } from '../../dev/fixtures-runs';
import type { FakeBridge } from '../../dev/fake-bridge';
import { flush, installFake } from '../test-helpers';
import { connectEvents } from './engine-events';
import { useRunDetail } from './run-detail';
import { useRuns } from './runs';
import { useUi } from './ui';

let fake: FakeBridge;
let disconnect: () => void;

beforeEach(() => {
  fake = installFake();
  disconnect = connectEvents(getApi());
});
afterEach(() => disconnect());

/** The engine row id the seeded history gave an attempt (what live events carry). */
function rowId(runId: string, step: number, n: number): number {
  const e =
    fake.history.find((x) => x.runId === runId && x.type === 'decision' && x.payload.step === step && x.payload.n === n) ??
    fake.history
      .filter((x) => x.runId === runId && typeof x.payload.attemptId === 'number')
      .find((x, i, all) => {
        const started = fake.history.filter((s) => s.runId === runId && s.type === 'attempt.started' && s.id < x.id).at(-1);
        return started?.payload.step === step && started.payload.n === n && all.indexOf(x) === i;
      });
  return e!.payload.attemptId as number;
}

describe('run-detail store', () => {
  it('opens a run: document, title, attempt timings and row ids from the event history', async () => {
    await useRunDetail.getState().open(RUN_IDS.health);
    const d = useRunDetail.getState().byId[RUN_IDS.health]!;
    expect(d.status).toBe('ready');
    expect(d.title).toBe('Add health to Player');
    expect(d.doc!.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(Object.keys(d.timing).sort()).toEqual(['1:1', '2:1', '2:2', '3:1']);
    expect(d.attemptIds[rowId(RUN_IDS.health, 2, 1)]).toBe('2:1');
    expect(d.lastEventId).toBe(Math.max(...fake.history.filter((e) => e.runId === RUN_IDS.health).map((e) => e.id)));
  });

  it('a gate.finished updates only the attempt it belongs to', async () => {
    const store = useRunDetail.getState();
    await store.open(RUN_IDS.health);
    await store.loadAttempt(RUN_IDS.health, 2, 1);
    await store.loadAttempt(RUN_IDS.health, 2, 2);
    const before = useRunDetail.getState().byId[RUN_IDS.health]!;
    const other = before.attempts['2:2'];

    fake.engineEvent(RUN_IDS.health, 'gate.finished', {
      attemptId: rowId(RUN_IDS.health, 2, 1),
      gate: 'lint',
      passed: false,
      exitCode: 3,
      timedOut: false,
      durationMs: 800,
      failures: 0,
    });
    const after = useRunDetail.getState().byId[RUN_IDS.health]!;

    expect(after.attempts['2:1']!.detail!.gates.map((g) => [g.gate, g.passed, g.exitCode])).toEqual([
      ['test', false, 1],
      ['lint', false, 3],
    ]);
    expect(after.attempts['2:1']!.stale).toBe(true);
    expect(after.attempts['2:2']).toBe(other);
    expect(after.doc).toBe(before.doc);
  });

  it('a run.status updates the list badge and the open run alike', async () => {
    await useRuns.getState().load();
    await useRunDetail.getState().open(RUN_IDS.waiting);
    const wakeAt = new Date(Date.now() + 30_000).toISOString();
    fake.engineEvent(RUN_IDS.waiting, 'run.status', { status: 'running', reason: null, wakeAt: null });
    expect(useRuns.getState().runs.data.find((r) => r.id === RUN_IDS.waiting)!.status).toBe('running');
    expect(useRunDetail.getState().byId[RUN_IDS.waiting]!.doc!.status).toBe('running');
    expect(useRunDetail.getState().byId[RUN_IDS.waiting]!.wakeAt).toBeNull();

    fake.engineEvent(RUN_IDS.waiting, 'run.status', { status: 'waiting', reason: 'backoff', wakeAt });
    expect(useRuns.getState().runs.data.find((r) => r.id === RUN_IDS.waiting)).toMatchObject({ status: 'waiting', wakeAt });
    expect(useRunDetail.getState().byId[RUN_IDS.waiting]!.wakeAt).toBe(wakeAt);
    // Other runs keep their badges.
    expect(useRuns.getState().runs.data.find((r) => r.id === RUN_IDS.health)!.status).toBe('succeeded');
  });

  it('learns the row id of a new attempt from the first event after attempt.started and streams its transcript', async () => {
    await useRunDetail.getState().open(RUN_IDS.waiting);
    fake.engineEvent(RUN_IDS.waiting, 'attempt.started', { step: 2, n: 3, model: 'claude-opus-5-5', agent: 'anthropic' });
    fake.engineEvent(RUN_IDS.waiting, 'agent.transcript', { attemptId: 9001, kind: 'text', text: 'Trying a new approach.' });
    fake.engineEvent(RUN_IDS.waiting, 'api.usage', {
      attemptId: 9001,
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.02,
    });
    const d = useRunDetail.getState().byId[RUN_IDS.waiting]!;
    expect(d.attemptIds[9001]).toBe('2:3');
    expect(d.liveTranscript['2:3']!.map((t) => t.text)).toEqual(['Trying a new approach.']);
    const attempt = d.doc!.steps[1]!.attempts.find((a) => a.n === 3)!;
    expect(attempt).toMatchObject({ outcome: 'running', inputTokens: 10, costUsd: 0.02 });

    fake.engineEvent(RUN_IDS.waiting, 'attempt.finished', { attemptId: 9001, outcome: 'passed', errorClass: null, summary: 'gates passed' });
    const done = useRunDetail.getState().byId[RUN_IDS.waiting]!;
    expect(done.doc!.steps[1]!.attempts.find((a) => a.n === 3)!.outcome).toBe('passed');
    expect(done.liveTranscript['2:3']).toBeUndefined();
    expect(done.timing['2:3']!.finishedAt).not.toBeNull();
  });

  it('queues events that arrive while the run loads, and never applies one twice', async () => {
    // The event comes after the engine answered runs.get, while the renderer is still putting the run together.
    disconnect();
    fake = installFake({
      overrides: {
        'runs.get': ({ runId }) => {
          const doc = fake.runs.get(runId)!.doc;
          fake.engineEvent(runId, 'step.committed', { step: 2, commit: 'c0ffee00' });
          return doc;
        },
      },
    });
    disconnect = connectEvents(getApi());
    await useRunDetail.getState().open(RUN_IDS.running);
    await flush();
    const d = useRunDetail.getState().byId[RUN_IDS.running]!;
    expect(d.queued).toEqual([]);
    expect(d.doc!.steps[1]).toMatchObject({ status: 'succeeded', commit: 'c0ffee00' });
    const cost = d.doc!.costUsd!;
    // A replay of an event already seen (as after a reconnect) changes nothing.
    useRunDetail.getState().applyEvent({ ...fake.history.at(-1)!, type: 'api.usage', payload: { attemptId: 1, costUsd: 5 } });
    expect(useRunDetail.getState().byId[RUN_IDS.running]!.doc!.costUsd).toBe(cost);
  });

  it('turns a budget alert into one notice, with figures that keep their digits', () => {
    fake.engineEvent(RUN_IDS.running, 'budget.alert', { key: 'daily', kind: 'daily', spentUsd: 16, limitUsd: 20 });
    expect(useUi.getState().notices).toEqual([
      expect.objectContaining({
        level: 'warn',
        title: 'Daily budget alert',
        body: '$16.00 of the $20.00 daily budget spent (80 %). Runs wait for the next day when it is reached.',
        runId: RUN_IDS.running,
      }),
    ]);
    fake.engineEvent(RUN_IDS.running, 'budget.alert', { key: `task:${RUN_IDS.running}`, kind: 'task', spentUsd: 0.0033, limitUsd: 0.004 });
    expect(useUi.getState().notices.at(-1)).toMatchObject({
      title: 'Task budget alert',
      body: expect.stringMatching(/^\$0\.0033 of the \$0\.0040 task budget spent \(83 %\)/),
    });
    expect(useUi.getState().notices).toHaveLength(2);
    // The run then stops at that budget (its reason code says so, whatever its words): the notice saying so is the one alert left for it.
    fake.engineEvent(RUN_IDS.running, 'run.status', { status: 'paused', reason: 'Plafond de la tâche atteint', reasonCode: 'task_budget' });
    expect(useUi.getState().notices.map((n) => n.title)).toEqual(['Daily budget alert']);
    // The service's "needs you" notice goes once the run runs again (Raise budget and continue).
    fake.emit('app.onNotice', {
      code: 'run.needs_you',
      level: 'warn',
      title: 'Run needs you: Add health',
      body: 'task budget of $0.0040 reached',
      runId: RUN_IDS.running,
    });
    expect(useUi.getState().notices).toHaveLength(2);
    fake.engineEvent(RUN_IDS.running, 'run.status', { status: 'running', reason: null });
    expect(useUi.getState().notices.map((n) => n.title)).toEqual(['Daily budget alert']);
    // Decided by the notices' codes: reworded, the same notices go the same way.
    fake.emit('app.onNotice', { code: 'run.needs_you', level: 'warn', title: 'Waiting on you: Add health', body: '', runId: RUN_IDS.running });
    useUi.setState((s) => ({ notices: s.notices.map((n) => (n.code === 'budget.daily_alert' ? { ...n, title: 'Day spend warning' } : n)) }));
    fake.engineEvent(RUN_IDS.running, 'run.status', { status: 'running', reason: null });
    expect(useUi.getState().notices.map((n) => n.title)).toEqual(['Day spend warning']);
    fake.engineEvent(RUN_IDS.running, 'budget.alert', { key: 'daily', kind: 'daily', spentUsd: 17, limitUsd: 20 });
    expect(useUi.getState().notices.map((n) => n.title)).toEqual(['Daily budget alert']);
  });

  it('reports a load error with the engine’s sentence', async () => {
    await useRunDetail.getState().open('r-missing');
    expect(useRunDetail.getState().byId['r-missing']).toMatchObject({ status: 'error', error: 'No run r-missing.' });
  });
});
