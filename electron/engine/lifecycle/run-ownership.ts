// One owner per run, as the engine applies it: take a run's lease (or fail with run_busy naming the holder), renew it
// every heartbeat, notice when another process took it over, give it back. The decision itself is store/run-lease.ts.
import { randomBytes } from 'node:crypto';
import { RatchetError } from '../errors';
import { processAlive } from '../process/process-alive';
import { busyMessage, leaseState, type LeaseOwner, type LeaseState } from '../store/run-lease';
import type { RunRow, Store } from '../store/store';

export interface HeldLease {
  lease: LeaseOwner;
  /** Aborts when another process took the run over (only possible once the lease ran out). */
  lost: AbortSignal;
  /** Stops the heartbeat and gives the lease back (if it is still ours); safe to call twice. */
  release(): void;
}

export function runOwnership(deps: { store: Store; host: string; now: () => Date; leaseMs: number; heartbeatMs: number }) {
  const { store, host } = deps;

  /** A new claimant: this process, with a token no other claim shares (not even another claim of this process). */
  const newOwner = (): LeaseOwner => ({ pid: process.pid, host, token: randomBytes(16).toString('hex') });

  /** The lease as an observer sees it (no token): `held` means a live owner has the run. */
  const observe = (run: RunRow): LeaseState => leaseState(run, { host, token: null }, deps.now().getTime(), processAlive);

  /** Throws run_busy when a live owner holds the run (a read, said early; `hold` is what makes it certain). */
  function assertNotHeld(run: RunRow): void {
    const state = observe(run);
    if (state.kind === 'held') throw new RatchetError('run_busy', busyMessage(run.id, state));
  }

  /** Takes the run's lease (or throws `run_busy` naming the process and host that hold it) and renews it every heartbeat. */
  function hold(runId: string, given?: LeaseOwner): HeldLease {
    const owner = given ?? newOwner();
    const r = store.acquireLease(runId, owner, deps.leaseMs, processAlive);
    if (!r.ok) throw new RatchetError('run_busy', r.holder.kind === 'held' ? busyMessage(runId, r.holder) : `Run ${runId} is busy in another process.`);
    const lost = new AbortController();
    const beat = setInterval(() => {
      try {
        if (store.renewLease(runId, owner.token, deps.leaseMs)) return;
        clearInterval(beat);
        lost.abort();
      } catch {
        // The database stayed busy past its timeout: the next beat tries again, well within the lease.
      }
    }, deps.heartbeatMs);
    beat.unref();
    return {
      lease: owner,
      lost: lost.signal,
      release() {
        clearInterval(beat);
        store.releaseLease(runId, owner.token);
      },
    };
  }

  /** Runs `fn` holding the run's lease (taken first: a second claimant fails before anything changes), then gives it back. */
  async function withLease<T>(runId: string, fn: (lease: LeaseOwner) => Promise<T>): Promise<T> {
    const held = hold(runId);
    try {
      return await fn(held.lease);
    } finally {
      held.release();
    }
  }

  return { observe, assertNotHeld, hold, withLease };
}
