// Stopping a command's whole process group, the project's one way: SIGTERM, then SIGKILL for whatever ignored it.
import { readFileSync } from 'node:fs';

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
  // Found before the group is signalled: once their parent is gone, nothing links them to it. They get SIGKILL at
  // once, as a sandbox gets from the kernel when its parent dies: a SIGTERM left them running (a sandbox's init
  // ignores it) past the grace timer of a process that exited meanwhile.
  for (const g of escapedGroups(pgid)) signalGroup(g, 'SIGKILL');
  signalGroup(pgid, 'SIGTERM');
  setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs).unref();
}

/**
 * The groups of the group leader's children that left it for a session of their own, which a signal to the group
 * does not reach. bubblewrap's sandbox is one (`--new-session`): it dies with its parent only once it has asked the
 * kernel to, early in its start, so a command stopped in those first milliseconds ran on, out of every group Ratchet
 * signals. Linux only (the leader's children from /proc, one small read: this runs on every stop); elsewhere none.
 */
export function escapedGroups(pgid: number): number[] {
  let children: string[];
  try {
    children = readFileSync(`/proc/${pgid}/task/${pgid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    return [];
  }
  const escaped: number[] = [];
  for (const pid of children) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp session …; comm may hold spaces and parentheses, so read after its last ')'.
      const [, , pgrp, sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(sid) === Number(pid) && Number(pgrp) !== pgid) escaped.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return escaped;
}
