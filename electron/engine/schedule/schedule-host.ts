// Local schedules in a process that is not one of the app's hosts (`ratchet worker`): the same ticker as the app's,
// `ratchet serve`'s and `ratchet mcp`'s, its runs started through the same scheduler (the home's queue, its concurrency).
// A tick is claimed in the store, so a worker beside the app on one home fires each tick once between them.
import { hostname } from 'node:os';
import type { Engine } from '../engine';
import { createScheduler } from '../lifecycle/run-scheduler';
import { applyRunEvent } from '../run/apply-run-commands';
import { RunQueue } from '../store/run-queue';
import { createScheduleTicker, scheduleTickMsOf } from './schedule-ticker';

export interface LocalSchedules {
  /** Stops the ticks; the runs this process started pause, resumable, and are waited for. */
  close(): Promise<void>;
}

export function startLocalSchedules(engine: Engine, o: { env: NodeJS.ProcessEnv; say(line: string): void; now?: () => Date }): LocalSchedules {
  const now = o.now ?? (() => new Date());
  const queue = new RunQueue(engine.store, applyRunEvent(engine.store, now), now);
  const scheduler = createScheduler(engine, {
    queue,
    self: { pid: process.pid, host: hostname() },
    concurrency: () => engine.settings().concurrency,
    onError: (_code, title, message, runId) => o.say(`${title}${runId ? ` (run ${runId})` : ''}: ${message}`),
  });
  const ticker = createScheduleTicker(engine, { now, execute: (runId) => scheduler.request(runId, { kind: 'execute' }) });
  ticker.start(scheduleTickMsOf(o.env));
  return {
    async close() {
      await ticker.stop();
      await scheduler.close();
    },
  };
}
