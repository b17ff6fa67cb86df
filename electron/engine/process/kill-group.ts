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

/** Sends `sig` to the one process `pid`; a process already gone is fine. */
function signalProcess(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * SIGTERM to the group now, SIGKILL after `graceMs`. The second signal is not cancelled when the group's leader
 * exits: a member that ignores SIGTERM (a CLI agent's child, a test runner's worker) still has to go. The timer does
 * not keep the process alive.
 */
export function terminateGroup(pgid: number | undefined, graceMs = KILL_GRACE_MS): void {
  if (pgid === undefined) return;
  // Held still while its children are read: a stopped group forks no child after the read, and none of its members
  // leaves it meanwhile (a fork in progress is restarted after the signal, so nothing is missed). The signal is
  // taken when the leader next runs, on another core maybe: the read waits until it is stopped.
  freezeGroup(pgid);
  // Found before the group is signalled: once their parent is gone, nothing links them to it. They get SIGKILL at
  // once, as a sandbox gets from the kernel when its parent dies: a SIGTERM left them running (a sandbox's init
  // ignores it) past the grace timer of a process that exited meanwhile.
  for (const pid of outOfReach(pgid)) {
    signalProcess(pid, 'SIGKILL');
    signalGroup(pid, 'SIGKILL');
  }
  signalGroup(pgid, 'SIGTERM');
  signalGroup(pgid, 'SIGCONT');
  setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs).unref();
}

/** How long a stop waits for the group's leader to be stopped before reading its children all the same. */
const FREEZE_WAIT_MS = 50;

/** SIGSTOP to the group, then waits (briefly, synchronously) until its leader is stopped: from then on it makes no child. */
function freezeGroup(pgid: number): void {
  signalGroup(pgid, 'SIGSTOP');
  if (process.platform !== 'linux') return;
  const until = performance.now() + FREEZE_WAIT_MS;
  while (performance.now() < until) {
    const state = processState(pgid);
    // T: stopped; Z or gone: it makes no child either.
    if (state === null || state === 'T' || state === 't' || state === 'Z') return;
  }
}

/** The one-letter state /proc gives a process, or null when it is gone. */
function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return null;
  }
}

/**
 * The group leader's children that SIGTERM to the group does not stop: those that left it for a session of their
 * own (a signal to the group does not reach them), and the init of a PID namespace of their own, which ignores any
 * signal from outside its namespace but SIGKILL. bubblewrap's sandbox is both, in turn: bubblewrap forks it as the
 * init of a new namespace, sets it up, then moves it to a session of its own (`--new-session`); it dies with
 * bubblewrap (`--die-with-parent`) only once it has asked the kernel to, late in that setup. A stop before that
 * killed bubblewrap and left the sandbox to run its command, parentless and out of every group Ratchet signals.
 * Linux only (the leader's children from /proc, small reads: this runs on every stop); elsewhere none.
 */
export function outOfReach(pgid: number): number[] {
  let children: string[];
  try {
    children = readFileSync(`/proc/${pgid}/task/${pgid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const pid of children) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp session …; comm may hold spaces and parentheses, so read after its last ')'.
      const [, , pgrp, sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ownSession = Number(sid) === Number(pid) && Number(pgrp) !== pgid;
      if (ownSession || namespaceInit(pid)) found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Whether `pid` is the init (pid 1) of a PID namespace below this process's: its NSpid line ends in 1. */
function namespaceInit(pid: string): boolean {
  const line = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  const ids = line?.trim().split(/\s+/) ?? [];
  return ids.length > 1 && ids[ids.length - 1] === '1';
}
