// Stopping a command's whole process group, the project's one way: SIGTERM, then SIGKILL for whatever ignored it.
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
  signalGroup(pgid, 'SIGTERM');
  setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs).unref();
}
