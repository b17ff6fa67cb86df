// Who may run a run, as a pure decision: a lease (pid, host, random token, expiry) is free, ours, held, or left by a dead or late owner.

/** The claimant: this process, and a token that tells its claims apart from any other (even in the same process). */
export interface LeaseOwner {
  pid: number;
  host: string;
  token: string;
}

/** The lease columns of a run row. */
export interface LeaseRow {
  owner_pid: number | null;
  owner_host: string | null;
  owner_token: string | null;
  lease_until: string | null;
}

export type LeaseState =
  | { kind: 'free' }
  | { kind: 'mine' }
  /** The owner was on this host and its process is gone: the lease can be taken over. */
  | { kind: 'dead'; pid: number; host: string }
  /** The owner did not renew in time (another host, a stopped machine, a reused pid): the lease can be taken over. */
  | { kind: 'expired'; pid: number; host: string; until: string | null }
  | { kind: 'held'; pid: number; host: string; until: string };

/** Who looks at a lease: a claimant with its token, or an observer (token null) that owns nothing. */
export interface LeaseViewer {
  host: string;
  token: string | null;
}

/** Decides the state of a run's lease for `viewer` at `nowMs`; `alive` tells whether a pid of this host still runs. */
export function leaseState(row: LeaseRow, viewer: LeaseViewer, nowMs: number, alive: (pid: number) => boolean): LeaseState {
  if (row.owner_pid === null) return { kind: 'free' };
  if (viewer.token !== null && row.owner_token === viewer.token) return { kind: 'mine' };
  const host = row.owner_host ?? '';
  if (host === viewer.host && !alive(row.owner_pid)) return { kind: 'dead', pid: row.owner_pid, host };
  if (row.lease_until === null || !(Date.parse(row.lease_until) > nowMs)) return { kind: 'expired', pid: row.owner_pid, host, until: row.lease_until };
  return { kind: 'held', pid: row.owner_pid, host, until: row.lease_until };
}

/** The sentence a second claimant sees. */
export function busyMessage(runId: string, state: Extract<LeaseState, { kind: 'held' }>): string {
  return `Run ${runId} is busy in process ${state.pid} on host ${state.host}; wait for it to finish or stop that process (its lease lasts until ${state.until} unless renewed).`;
}
