// Which queued runs start now: a pure decision over the queue, the runs holding a slot, the concurrency limit and who waits for each run.
import type { QueuedRun } from './store/run-queue';

export interface SchedulerInput {
  queued: readonly QueuedRun[];
  /** Runs holding a slot anywhere (leased), and runs this process started that have not taken their lease yet. */
  active: number;
  concurrency: number;
  self: { pid: number; host: string };
  alive: (pid: number) => boolean;
}

/** A run another live process waits for (`ratchet run --queue`): only that process starts it. */
export function ownedElsewhere(q: QueuedRun, self: SchedulerInput['self'], alive: (pid: number) => boolean): boolean {
  if (q.ownerPid === null) return false;
  if (q.ownerPid === self.pid && q.ownerHost === self.host) return false;
  // Another host's waiter cannot be checked: its run stays its own. A waiter of this host that died leaves it to anyone.
  return q.ownerHost !== self.host || alive(q.ownerPid);
}

/**
 * The runs this process should start now, in queue order (priority, then first come). A slot that falls to a run
 * another process waits for is kept free for it, so a run queued from the CLI is never overtaken by later ones.
 */
export function runsToStart(input: SchedulerInput): QueuedRun[] {
  let free = input.concurrency - input.active;
  const start: QueuedRun[] = [];
  for (const q of input.queued) {
    if (free <= 0) break;
    free--;
    if (!ownedElsewhere(q, input.self, input.alive)) start.push(q);
  }
  return start;
}
