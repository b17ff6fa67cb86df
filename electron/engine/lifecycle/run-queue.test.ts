// The run queue through the service: a concurrency limit, `queued` runs that start as slots free, priority, and cancel.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventName } from '../../../shared/contract';
import type { ScriptFn } from '../../scripted/server';
import { RunQueue } from '../store/run-queue';
import { applyRunEvent } from '../run/apply-run-commands';
import { byStep } from '../testing/recovery-fixtures';
import { callValue, until } from '../testing/service-calls';
import { serviceHarness } from '../testing/service-harness';
import { makeRepo } from '../testing/temp-repo';

const harness = serviceHarness();

const call = callValue;

async function setup(concurrency: number, script: ScriptFn = byStep) {
  const { engine, service } = await harness.start({ server: { script }, service: { queuePollMs: 100 } });
  await call(service, 'settings.set', { concurrency });
  const events: Array<{ name: EventName; payload: unknown }> = [];
  service.subscribe((name, payload) => events.push({ name, payload }));
  // Each run's gate waits for its own latch file (readable from inside the sandbox), so the test decides when it ends.
  const latches = mkdtempSync(join(tmpdir(), 'ratchet-latch-'));
  const start = (title: string, priority?: number) =>
    call<{ runId: string }>(service, 'runs.start', {
      repo: makeRepo(),
      title,
      steps: [{ title: 'One', gates: ['wait'] }],
      gates: { wait: `while [ ! -f ${latches}/${title} ]; do sleep 0.05; done; echo ok` },
      priority,
    }).then((r) => r.runId);
  const release = (title: string) => writeFileSync(join(latches, title), '');
  const status = (runId: string) => engine.store.getRun(runId)?.status;
  return { engine: engine!, service: service, events, start, release, status };
}

describe('the run queue', () => {
  it('runs three runs two at a time: the third waits as queued and starts when a slot frees', async () => {
    const { engine, service, start, release, status } = await setup(2);
    const a = await start('a');
    const b = await start('b');
    const c = await start('c');
    expect(status(c)).toBe('queued');
    expect(engine.store.getRun(c)?.reason).toBe('Queued: waits for a free slot (2 runs at a time).');
    const q = await call<{ queued: Array<{ runId: string; position: number }>; concurrency: number }>(service, 'runs.queue', {});
    expect(q).toMatchObject({ concurrency: 2, queued: [{ runId: c, position: 1 }] });
    await until(() => status(a) === 'running' && status(b) === 'running');
    expect(status(c)).toBe('queued');
    release('a');
    await until(() => status(a) === 'succeeded');
    await until(() => status(c) === 'running');
    expect(status(b)).toBe('running');
    release('b');
    release('c');
    await until(() => status(b) === 'succeeded' && status(c) === 'succeeded');
  }, 90_000);

  it('starts the higher priority first, and a cancelled queued run never starts', async () => {
    const { engine, service, start, release, status } = await setup(1);
    const a = await start('a');
    const low = await start('low');
    const gone = await start('gone');
    const high = await start('high', 5);
    expect([status(low), status(gone), status(high)]).toEqual(['queued', 'queued', 'queued']);
    await call(service, 'runs.stop', { runId: gone });
    expect(status(gone)).toBe('cancelled');
    expect(engine.store.getRun(gone)?.reason).toBe('Stopped by you before it started (removed from the queue).');
    await call(service, 'runs.setPriority', { runId: low, priority: 1 });
    release('a');
    await until(() => status(high) === 'running');
    expect(status(low)).toBe('queued');
    release('high');
    await until(() => status(low) === 'running');
    release('low');
    await until(() => status(low) === 'succeeded');
    expect(status(gone)).toBe('cancelled');
    expect(status(a)).toBe('succeeded');
  }, 90_000);

  it('a raised limit starts queued runs at once, and a queued retry goes back to how it was when cancelled', async () => {
    const { engine, service, start, release, status } = await setup(1);
    const a = await start('a');
    const b = await start('b');
    expect(status(b)).toBe('queued');
    await call(service, 'settings.set', { concurrency: 2 });
    await until(() => status(b) === 'running');
    release('a');
    release('b');
    await until(() => status(a) === 'succeeded' && status(b) === 'succeeded');
    // A retry queued behind a busy slot, then cancelled: the run keeps its status (nothing it made is touched).
    await call(service, 'settings.set', { concurrency: 1 });
    const x = await start('x');
    await until(() => status(x) === 'running');
    const queue = new RunQueue(engine.store, applyRunEvent(engine.store));
    engine.store.restoreRunStatus(a, 'failed', 'test: as if it had failed');
    queue.enqueue(a, { kind: 'retry' }, { reason: 'Queued: waits for a free slot (1 run at a time).' });
    await call(service, 'runs.stop', { runId: a });
    expect(engine.store.getRun(a)).toMatchObject({ status: 'failed', reason: 'Removed from the queue by you; the retry did not start.' });
    release('x');
    await until(() => status(x) === 'succeeded');
  }, 90_000);

  it('a 429 with retry-after on one run holds every run using the same API key until then', async () => {
    // The first three calls (the SDK's own two retries included) are rate-limited with retry-after 2 s.
    let calls = 0;
    let bFirstCall = 0;
    const times: number[] = [];
    const { engine, service, start, release, status, events } = await setup(2, (req) => {
      times.push(Date.now());
      if (bFirstCall === 0 && JSON.stringify(req.body).includes('# Task: b\\n')) bFirstCall = Date.now();
      return ++calls <= 3 ? { error: { status: 429, retryAfter: 3 } } : byStep(req);
    });
    const a = await start('a');
    await until(() => engine.store.getRun(a)?.status === 'waiting');
    const hold = new RunQueue(engine.store, applyRunEvent(engine.store)).activeHolds()[0];
    expect(hold).toMatchObject({ runId: a, reason: 'rate limited (429) with retry-after 3 s' });
    const b = await start('b');
    // b waits for the hold before its first call, and says why.
    await until(() =>
      events.some(
        (e) =>
          e.name === 'runs.onEvent' &&
          (e.payload as { runId: string; type: string; payload: { status?: string; reason?: string } }).runId === b &&
          (e.payload as { payload: { reason?: string } }).payload.reason?.includes('The API key is rate-limited until') === true,
      ),
    );
    // a's own backoff (a minute by the preset) is cut short by Retry now; it still waits for the hold.
    await call(service, 'runs.retryNow', { runId: a });
    release('a');
    release('b');
    await until(() => status(a) === 'succeeded' && status(b) === 'succeeded');
    // b's first call came only once the hold was over (a, the run that was limited, follows its own backoff).
    const until_ = Date.parse(hold!.until);
    expect(bFirstCall).toBeGreaterThan(0);
    expect(bFirstCall).toBeGreaterThanOrEqual(until_ - 50);
    expect(times.length).toBeGreaterThan(4);
  }, 90_000);
});
