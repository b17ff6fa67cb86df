// Stopping a command's whole process group, the project's one way: SIGTERM, then SIGKILL for whatever ignored it.
import { readdirSync, readFileSync } from 'node:fs';

/** Time between SIGTERM and SIGKILL: enough for a test runner or an agent CLI to flush and clean up, short enough not to stall a run. */
export const KILL_GRACE_MS = 2_000;

/** Sends `sig` to the process group `pgid` (a child spawned with `detached: true`); a group already gone is fine. */
export function signalGroup(pgid: number | undefined, sig: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, sig);
  } catch {
    // ESRCH: the whole group is already gone, which is what was wanted.
  }
}

/**
 * SIGTERM to the group now, SIGKILL after `graceMs`. The second signal is not cancelled when the group's leader
 * exits: a member that ignores SIGTERM (a CLI agent's child, a test runner's worker) still has to go. The timer does
 * not keep the process alive.
 */
export function terminateGroup(pgid: number | undefined, graceMs = KILL_GRACE_MS): void {
  if (pgid === undefined) return;
  // Found before the group is signalled: once their parent is gone, nothing links them to it.
  const groups = [...escapedGroups(pgid), pgid];
  for (const g of groups) signalGroup(g, 'SIGTERM');
  setTimeout(() => {
    for (const g of groups) signalGroup(g, 'SIGKILL');
  }, graceMs).unref();
}

/**
 * The groups of children of `pgid`'s members that left it for a session of their own, which a signal to the group
 * does not reach. bubblewrap's sandbox is one (`--new-session`): it dies with its parent only once it has asked the
 * kernel to, early in its start, so a command stopped in those first milliseconds ran on, out of every group Ratchet
 * signals. Linux only (read from /proc); elsewhere none.
 */
export function escapedGroups(pgid: number): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  const procs: Array<{ pid: number; ppid: number; pgrp: number; sid: number }> = [];
  for (const d of pids) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // pid (comm) state ppid pgrp session …; comm may hold spaces and parentheses, so read after its last ')'.
      const [, ppid, pgrp, sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.push({ pid: Number(d), ppid: Number(ppid), pgrp: Number(pgrp), sid: Number(sid) });
    } catch {
      // Gone meanwhile.
    }
  }
  const members = new Set(procs.filter((p) => p.pgrp === pgid).map((p) => p.pid));
  return procs.filter((p) => members.has(p.ppid) && p.pgrp !== pgid && p.sid === p.pid).map((p) => p.pid);
}
