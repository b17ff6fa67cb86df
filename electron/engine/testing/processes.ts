// Test helper: the processes a test started, seen from outside (ps and /proc), to check that a stop left none behind.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Processes whose command line holds `marker`, as `ps` lists them ("pid args" lines). */
export function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'));
}

/** The children of `pid`, from /proc (Linux); none once it is gone. */
export function childrenOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    return [];
  }
}

/** This process's child whose command line holds `marker`, from /proc (Linux); null when there is none. */
export function childOfThisProcess(marker: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after its last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return null;
}
