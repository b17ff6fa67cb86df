// Stopping a command's whole process group, the project's one way: SIGTERM, then SIGKILL for whatever ignored it.
import { readFileSync, readlinkSync } from 'node:fs';

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

/** Sends `sig` to one process; one already gone is fine. */
function signalProcess(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: gone.
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
  // ignores it) past the grace timer of a process that exited meanwhile. The group is stopped first, so that no
  // child is made between that look and the signals (bubblewrap makes its sandbox in its first milliseconds).
  const frozen = freezeGroup(pgid);
  for (const pid of escapedGroups(pgid)) {
    signalGroup(pid, 'SIGKILL');
    signalProcess(pid, 'SIGKILL');
  }
  signalGroup(pgid, 'SIGTERM');
  if (frozen) signalGroup(pgid, 'SIGCONT');
  setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs).unref();
}

/** How long a stop waits for the group's leader to be stopped before looking at its children all the same. */
const FREEZE_WAIT_MS = 50;

/**
 * SIGSTOP to the group, then waits (briefly, synchronously) until its leader is stopped: from then on it makes no
 * child. Linux only (the leader's state from /proc); false elsewhere or when the group is gone.
 */
function freezeGroup(pgid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    process.kill(-pgid, 'SIGSTOP');
  } catch {
    return false;
  }
  const until = performance.now() + FREEZE_WAIT_MS;
  while (performance.now() < until) {
    const state = processState(pgid);
    // T: stopped; Z or gone: it makes no child either.
    if (state === null || state === 'T' || state === 't' || state === 'Z') break;
  }
  return true;
}

/** The one-letter state /proc gives a process, or null when it is gone. */
function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

/**
 * The group leader's children that a signal to the group does not stop: those in a session of their own, and those
 * at the head of a pid namespace of their own (which ignore SIGTERM from outside it; the kernel ends everything in
 * the namespace with them). bubblewrap's sandbox is both (`--new-session`, `--unshare-pid`): it dies with its parent
 * only once it has asked the kernel to, early in its start, so a command stopped in those first milliseconds ran on,
 * out of every group Ratchet signals. Linux only (the leader's children from /proc, small reads: this runs on every
 * stop); elsewhere none.
 */
export function escapedGroups(pgid: number): number[] {
  let children: string[];
  let ownNs: string;
  try {
    children = readFileSync(`/proc/${pgid}/task/${pgid}/children`, 'utf8').split(' ').filter(Boolean);
    ownNs = readlinkSync(`/proc/${pgid}/ns/pid`);
  } catch {
    return [];
  }
  const escaped: number[] = [];
  for (const pid of children) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp session …; comm may hold spaces and parentheses, so read after its last ')'.
      const [, , pgrp, sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ownSession = Number(sid) === Number(pid) && Number(pgrp) !== pgid;
      if (ownSession || readlinkSync(`/proc/${pid}/ns/pid_for_children`) !== ownNs || readlinkSync(`/proc/${pid}/ns/pid`) !== ownNs) escaped.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return escaped;
}
