// Whether a process of this host still runs: the one check the lease, the private folders and the run cgroups share.

/** Whether a process of this host still runs (EPERM: it exists, as another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
