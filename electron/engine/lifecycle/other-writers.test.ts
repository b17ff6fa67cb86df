// Runs another process writes (the CLI) reach the app live: the engine watches the store for other writers and
// delivers their events through the service's event stream, without a reload; its own events still arrive once.
import { describe, expect, it, vi } from 'vitest';
import { until } from '../../../shared/testing/until';
import type { EventName } from '../../../shared/contract';
import { createEngine } from '../engine';
import { createService } from '../service/service';
import { seedRun } from '../store/testing/seed-run';
import type { EngineEvent } from '../store/store';
import { tempDir } from '../testing/temp-repo';

describe('other writers', () => {
  // The watcher polls on an interval: fake timers make each poll happen exactly when the test advances the clock, so
  // "nothing more arrived" is checked after polls that did run, not after a sleep that may have been too short.
  it("delivers a run created and changed by another connection through the service's event stream", async () => {
    vi.useFakeTimers();
    try {
      const home = tempDir();
      const app = createEngine({ home, env: {} });
      const service = createService(app, { host: 'headless', version: '0', env: {}, watchMs: 50 });
      const poll = (times = 1) => vi.advanceTimersByTimeAsync(50 * times);
      const seen: Array<{ event: EventName; payload: unknown }> = [];
      service.subscribe((event, payload) => seen.push({ event, payload }));
      const engineEvents = (runId: string) =>
        seen.filter((s) => s.event === 'runs.onEvent' && (s.payload as EngineEvent).runId === runId).map((s) => (s.payload as EngineEvent).type);

      // Another process (here: another connection to the same file) starts a run and finishes it.
      const cli = createEngine({ home, env: {} });
      const theirs = seedRun(cli.store);
      expect(engineEvents(theirs)).toEqual([]);
      await poll();
      expect(engineEvents(theirs)).toEqual(['run.created']);
      cli.store.setRunStatus(theirs, 'running', null);
      cli.store.setRunStatus(theirs, 'succeeded', null, { finished: true });
      await poll();
      expect(engineEvents(theirs)).toEqual(['run.created', 'run.status', 'run.status']);
      // Its terminal status becomes a notice like a run of this process would.
      expect(seen.some((s) => s.event === 'app.onNotice' && (s.payload as { runId: string }).runId === theirs)).toBe(true);

      // This process's own events arrive once, also when interleaved with the other writer's: several polls later,
      // none came a second time.
      const mine = seedRun(app.store);
      cli.store.restoreRunStatus(theirs, 'paused', 'x');
      app.store.setRunStatus(mine, 'running', null);
      expect(engineEvents(mine)).toEqual(['run.created', 'run.status']);
      await poll(5);
      expect(engineEvents(theirs)).toHaveLength(4);
      expect(engineEvents(mine)).toEqual(['run.created', 'run.status']);
      // Every event id is delivered at most once, in the order of the log.
      const ids = seen.filter((s) => s.event === 'runs.onEvent').map((s) => (s.payload as EngineEvent).id);
      expect(new Set(ids).size).toBe(ids.length);

      // After close, polls that would have delivered it deliver nothing.
      await service.close();
      cli.store.restoreRunStatus(theirs, 'failed', 'after close', { finished: true });
      await poll(5);
      expect(engineEvents(theirs)).toHaveLength(4);
      cli.close();
      app.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks a run whose other process died as interrupted, live', async () => {
    const home = tempDir();
    const app = createEngine({ home, env: {} });
    const service = createService(app, { host: 'headless', version: '0', env: {}, watchMs: 25 });
    const statuses: string[] = [];
    service.subscribe((event, payload) => {
      const e = payload as EngineEvent;
      if (event === 'runs.onEvent' && e.type === 'run.status') statuses.push(String(e.payload.status));
    });
    const cli = createEngine({ home, env: {} });
    const runId = seedRun(cli.store);
    cli.store.setRunStatus(runId, 'running', null);
    cli.store.claimRun(runId, 2 ** 22 + 77, (await import('node:os')).hostname());
    await until(() => statuses.includes('interrupted'), { ms: 15_000, describe: 'the run marked interrupted' });
    expect(app.store.getRun(runId)?.status).toBe('interrupted');
    await service.close();
    cli.close();
    app.close();
  }, 20_000);
});
