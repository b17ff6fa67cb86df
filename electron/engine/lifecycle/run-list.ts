// Runs as `ratchet list` and the app see them, after marking the runs whose process is gone as interrupted. Store-only
// (no agent, sandbox or git), so listing needs nothing else loaded.
import type { RunListItem } from '../../../shared/domain';
import { processAlive } from '../process/process-alive';
import { applyRunCommands } from '../run/apply-run-commands';
import { runLife } from '../run/run-machine';
import { leaseState } from '../store/run-lease';
import { openDatabase } from '../store/open-store';
import { Store, type RunRow } from '../store/store';

/** Marks running/waiting/planning runs that nobody holds (no owner, a dead one, or a lease that ran out) as interrupted. */
export function markInterrupted(store: Store, self: { pid: number; host: string }, nowMs: number): string[] {
  const found: string[] = [];
  for (const run of store.runsWithStatus(['running', 'waiting', 'planning'])) {
    if (run.owner_pid === self.pid && run.owner_host === self.host) continue;
    // A parked run (rate limit, daily budget) has no owner on purpose: it waits for its wake_at.
    if (run.status === 'waiting' && run.owner_pid === null && run.wake_at !== null) continue;
    // No owner, a dead one (this host, pid gone) or one whose lease ran out: nobody is running it.
    if (leaseState(run, { host: self.host, token: null }, nowMs, processAlive).kind !== 'held') {
      // Its attempt ended when the process did: nothing of it may look alive in the app.
      store.closeDeadAttempts(run.id);
      applyRunCommands(store, run.id, runLife(run.id, { type: 'processLost', lastSeen: run.heartbeat_at ?? null }, new Date(nowMs)));
      found.push(run.id);
    }
  }
  return found;
}

/** One run as `ratchet list` (and its --json) gives it. */
export function listItem(run: RunRow): RunListItem {
  return {
    id: run.id,
    status: run.status,
    repo: run.repo_path,
    branch: run.branch,
    createdAt: run.created_at,
    reasonCode: run.reason_code ?? null,
    checked: run.checked === 1,
  };
}

/** Every run as `ratchet list` prints it. */
export function listRuns(store: Store): RunListItem[] {
  return store.listRuns().map(listItem);
}

/**
 * `ratchet list` without an engine (no agent or sandbox loaded, so it answers at once): the store under `home` opened,
 * runs whose process is gone marked interrupted, every run listed, the store closed. `movedAside`: where a damaged
 * database was moved.
 */
export function listStoredRuns(home: string, self: { pid: number; host: string }, nowMs: number): { runs: RunListItem[]; movedAside: string | null } {
  const { db, movedAside } = openDatabase(home);
  try {
    const store = new Store(db);
    markInterrupted(store, self, nowMs);
    return { runs: listRuns(store), movedAside: movedAside ?? null };
  } finally {
    db.close();
  }
}
