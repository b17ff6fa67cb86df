// Stopping a command stops what it started, including a child that left its process group for a session of its own.
import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { until } from '../../../shared/testing/until';
import { whichIn } from './which';
import { escapedGroups, terminateGroup } from './kill-group';

/** Processes whose command line holds `marker`, as `ps` lists them. */
function running(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'));
}

const setsid = process.platform === 'linux' ? whichIn('setsid') : null;

describe.skipIf(!setsid)(setsid ? 'terminateGroup' : 'terminateGroup — skipped: needs Linux and util-linux setsid', () => {
  it("stops a child that left the group with setsid (as bubblewrap's sandbox does), and the group itself", async () => {
    const marker = `ratchet-escaped-${process.pid}-${Date.now()}`;
    const child = spawn('sh', ['-c', `${setsid} sh -c 'sleep 300 # ${marker}-inner' & sleep 300 # ${marker}-outer`], { detached: true, stdio: 'ignore' });
    await until(() => running(`${marker}-inner`).length > 0 && running(`${marker}-outer`).length > 0, { ms: 10_000, describe: 'both to start' });
    expect(escapedGroups(child.pid!)).toHaveLength(1);
    terminateGroup(child.pid, 100);
    await until(() => running(marker).length === 0, { ms: 5000, describe: () => `every process to end; still running:\n${running(marker).join('\n')}` });
  });

  it('finds no escaped group for a group whose children stayed in it, nor for a group that is gone', () => {
    const child = spawn('sh', ['-c', 'sleep 300 & sleep 300'], { detached: true, stdio: 'ignore' });
    try {
      expect(escapedGroups(child.pid!)).toEqual([]);
    } finally {
      terminateGroup(child.pid, 100);
    }
    expect(escapedGroups(2 ** 22 + 7)).toEqual([]);
  });
});
