// `ratchet run --queue`: the run waits in the shared queue (the app's and other CLIs') for a free slot, then this process runs it.
import { hostname } from 'node:os';
import { type Engine, RatchetError, processAlive, runsToStart, loadSettings } from '../engine';

/**
 * Returns once `runId` may start: at once when a slot is free and nobody waits, otherwise after waiting its turn
 * (priority, then first come) as `queued`. A stop while queued takes the run out of the queue and throws `stopped`.
 */
export async function waitForSlot(
  engine: Engine,
  runId: string,
  opts: { priority: number; signal: AbortSignal; say: (line: string) => void; pollMs?: number },
): Promise<void> {
  const queue = engine.queue();
  const self = { pid: process.pid, host: hostname() };
  const limit = () => loadSettings(engine.home).concurrency;
  if (queue.list().length === 0 && queue.leasedRunIds().length < limit()) return;
  const n = limit();
  queue.enqueue(
    runId,
    { kind: 'execute' },
    { priority: opts.priority, owner: self, reason: `Queued: waits for a free slot (${n} ${n === 1 ? 'run' : 'runs'} at a time).` },
  );
  let said = -1;
  for (;;) {
    if (opts.signal.aborted) {
      queue.cancel(runId);
      throw new RatchetError('stopped', 'Stopped while queued; the run was taken out of the queue.');
    }
    const queued = queue.list();
    const mine = queued.findIndex((q) => q.id === runId);
    if (mine < 0)
      throw new RatchetError(
        'run_busy',
        `Run ${runId} left the queue without this process (another process started or removed it); see \`ratchet status ${runId}\`.`,
      );
    if (runsToStart({ queued, active: queue.leasedRunIds().length, concurrency: limit(), self, alive: processAlive }).some((q) => q.id === runId)) {
      if (queue.claim(runId)) return;
    }
    if (mine !== said) {
      opts.say(
        `Queued: ${mine === 0 ? 'next in line' : `${mine} ${mine === 1 ? 'run' : 'runs'} ahead`}; waiting for a free slot (${limit()} at a time, Settings › Concurrency).`,
      );
      said = mine;
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
  }
}
