// The scheduler, in one place: which queued runs start now (runsToStart, a pure decision over the queue, the runs
// holding a slot, the concurrency limit and who waits for each run), and the host's launcher that acts on it.
import { RatchetError, refuseSteering, runNotFound, userStop } from '../errors';
import type { ContinueOptions } from './run-recovery';
import { processAlive } from '../process/process-alive';
import { applyRunCommands } from '../run/apply-run-commands';
import { runLife } from '../run/run-machine';
import type { QueueAction, QueuedRun, RunQueue } from '../store/run-queue';
import type { Store } from '../store/store';

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

/** What the scheduler needs of the engine: the three ways a run starts in this process. */
export interface SchedulerEngine {
  execute(runId: string, signal: AbortSignal): Promise<unknown>;
  retry(runId: string, opts: { signal: AbortSignal }): Promise<unknown>;
  resume(
    runId: string,
    opts: { signal: AbortSignal; choices?: ContinueOptions['choices']; auto?: ContinueOptions['auto']; skipStep?: boolean; runAnyway?: boolean },
  ): Promise<unknown>;
  /** A review round: every pending comment sent to the agent as one more step. */
  review?: { send(runId: string, opts: { signal: AbortSignal }): Promise<unknown> };
}

export interface SchedulerOptions {
  queue: RunQueue;
  /** The concurrency limit as Settings say now. */
  concurrency(): number;
  self: SchedulerInput['self'];
  alive?: (pid: number) => boolean;
  /** A run that ended with an error, or a queue that could not start one: said to the user. */
  onError(code: 'run.error' | 'queue.error', title: string, message: string, runId: string | null): void;
  /** How often to look for slots freed by other processes (default 1 s). */
  pollMs?: number;
}

/**
 * The one place runs start in a host process (the app, `ratchet serve`): a run starts now when a slot is free and no
 * one is ahead of it, else it waits in the queue; a slot freed (a run ends here, or in another process) starts the next.
 */
export function createScheduler(engine: SchedulerEngine, o: SchedulerOptions) {
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  const alive = o.alive ?? processAlive;
  let closing = false;

  /** Starts the action in the background; its outcome arrives as engine events, and its slot goes to the next queued run. */
  function launch(runId: string, action: QueueAction): void {
    if (running.has(runId)) throw new RatchetError('run_busy', `Run ${runId} is already running here.`);
    const controller = new AbortController();
    const signal = controller.signal;
    const work =
      action.kind === 'execute'
        ? engine.execute(runId, signal)
        : action.kind === 'retry'
          ? engine.retry(runId, { signal })
          : action.kind === 'review'
            ? (engine.review?.send(runId, { signal }) ?? Promise.reject(new RatchetError('bad_arguments', 'This host sends no review rounds.')))
            : engine.resume(runId, { signal, choices: action.choices, auto: action.auto, skipStep: action.skipStep, runAnyway: action.runAnyway });
    const done = work
      .catch((err: unknown) => o.onError('run.error', 'Run stopped with an error', errorMessage(err), runId))
      .finally(() => {
        running.delete(runId);
        pump();
      });
    running.set(runId, { controller, done });
  }

  /** Runs holding a slot: leased anywhere, or started here and not leased yet. */
  function active(): string[] {
    return [...new Set([...o.queue.leasedRunIds(), ...running.keys()])];
  }

  /** Starts the run now if a slot is free and nobody is ahead of it; otherwise it waits in the queue (status `queued`). */
  function request(runId: string, action: QueueAction, priority = 0): { queued: boolean } {
    if (running.has(runId)) throw new RatchetError('run_busy', `Run ${runId} is already running here.`);
    const limit = o.concurrency();
    if (o.queue.list().length === 0 && active().length < limit) {
      launch(runId, action);
      return { queued: false };
    }
    o.queue.enqueue(runId, action, { priority, owner: null, reason: `Queued: waits for a free slot (${limit} ${limit === 1 ? 'run' : 'runs'} at a time).` });
    pump();
    return { queued: true };
  }

  /** Starts queued runs while slots are free. */
  function pump(): void {
    if (closing) return;
    try {
      const starts = runsToStart({ queued: o.queue.list(), active: active().length, concurrency: o.concurrency(), self: o.self, alive });
      for (const q of starts) {
        const action = o.queue.claim(q.id);
        if (action) launch(q.id, action);
      }
    } catch (err) {
      o.onError('queue.error', 'The run queue could not start a run', errorMessage(err), null);
    }
  }
  // Slots freed by other processes (a CLI run that ended) and queued runs left from before a restart.
  const timer = setInterval(pump, o.pollMs ?? 1000);
  timer.unref();

  return {
    request,
    pump,
    active,
    /** Runs this process is executing now. */
    runningHere: (): string[] => [...running.keys()],
    isRunningHere: (runId: string): boolean => running.has(runId),
    /**
     * The user's Stop: a run executing here is aborted (it ends cancelled) and waited for; a queued run leaves the
     * queue; a run parked until its wake time is cancelled. Other runs are left as they are.
     */
    async stop(runId: string, store: Store): Promise<void> {
      const r = running.get(runId);
      if (r) {
        r.controller.abort(userStop());
        await r.done;
        return;
      }
      const run = store.getRun(runId);
      if (!run) throw runNotFound(runId);
      // The steering table decides whether a Stop applies (an ended or paused run has nothing to stop).
      refuseSteering(`Run ${runId}`, run.status, 'stop');
      if (run.status === 'queued') o.queue.cancel(runId);
      else applyRunCommands(store, runId, runLife(runId, { type: 'stopRequested', status: run.status }, new Date()));
    },
    /** Stops every run this process executes (they pause, resumable) and waits for them; nothing new starts. */
    async close(): Promise<void> {
      closing = true;
      clearInterval(timer);
      for (const r of running.values()) r.controller.abort();
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
