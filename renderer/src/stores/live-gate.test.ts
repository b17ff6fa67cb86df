// @vitest-environment jsdom
// A running gate's streamed output in the run-detail store, and a run's events loaded page by page.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getApi } from '../api/client';
import { RUN_IDS } from '../../dev/fixtures-runs';
import type { FakeBridge } from '../../dev/fake-bridge';
import { installFake } from '../test-helpers';
import { connectEvents } from './engine-events';
import { appendLive, useRunDetail } from './run-detail';

let fake: FakeBridge;
let disconnect: () => void;

beforeEach(() => {
  fake = installFake();
  disconnect = connectEvents(getApi());
});
afterEach(() => disconnect());

const liveAttemptId = (runId: string) =>
  [...fake.history].reverse().find((e) => e.runId === runId && typeof e.payload.attemptId === 'number')!.payload.attemptId as number;

describe('live gate output', () => {
  it('gathers gate.output chunks of the running gate, keeps them out of the activity log, and drops them when the gate ends', async () => {
    const run = RUN_IDS.running;
    await useRunDetail.getState().open(run);
    const attemptId = liveAttemptId(run);
    const key = useRunDetail.getState().byId[run]!.current!;
    fake.engineEvent(run, 'gate.started', { attemptId, gate: 'test', command: 'npm test' });
    fake.engineEvent(run, 'gate.output', { attemptId, gate: 'test', text: 'compiling\n', skippedBytes: 0, seq: 1 });
    fake.engineEvent(run, 'gate.output', { attemptId, gate: 'test', text: 'ok 1 - adds\n', skippedBytes: 0, seq: 2 });
    let d = useRunDetail.getState().byId[run]!;
    expect(d.liveGate[key]).toEqual({ gate: 'test', text: 'compiling\nok 1 - adds\n', skippedBytes: 0 });
    expect(d.log.some((l) => l.message.includes('gate.output') || l.message.includes('compiling'))).toBe(false);
    fake.engineEvent(run, 'gate.finished', { attemptId, gate: 'test', passed: true, exitCode: 0, timedOut: false, durationMs: 1200, failures: 0 });
    d = useRunDetail.getState().byId[run]!;
    expect(d.liveGate[key]).toBeUndefined();
    expect(d.runningGate[key]).toBeNull();
  });

  it('keeps only the newest part of a very long live output, from a line start, counting what it dropped', () => {
    const line = `${'x'.repeat(99)}\n`;
    let live = appendLive(undefined, { gate: 'test', text: line.repeat(6000), skippedBytes: 0 });
    live = appendLive(live, { gate: 'test', text: 'last line\n', skippedBytes: 10 });
    expect(live.text.length).toBeLessThanOrEqual(512 * 1024);
    expect(live.text.startsWith('x')).toBe(true);
    expect(live.text.endsWith(`${line}last line\n`)).toBe(true);
    expect(live.skippedBytes).toBe(6000 * 100 + 10 + 10 - live.text.length);
  });

  it("loads a run's history page by page, ids beyond what Math.max(...ids) could spread", async () => {
    const run = RUN_IDS.health;
    const attemptId = liveAttemptId(run);
    for (let i = 0; i < 4500; i++) fake.record(run, 'agent.transcript', { attemptId, kind: 'text', text: `old ${i}` }, new Date().toISOString());
    await useRunDetail.getState().open(run);
    const pages = fake.calls.filter((c) => c.method === 'runs.events');
    expect(pages.map((c) => (c.input as { limit?: number }).limit)).toEqual([2000, 2000, 2000]);
    expect(useRunDetail.getState().byId[run]!.lastEventId).toBe(fake.history.at(-1)!.id);
  });
});
