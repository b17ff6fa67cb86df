// Stopping a command stops what it started, including a child that left its process group for a session of its own.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../../../shared/testing/until';
import { childrenOf, processesWith as running } from '../testing/processes';
import { whichIn } from './which';
import { outOfReach, terminateGroup } from './kill-group';

const setsid = process.platform === 'linux' ? whichIn('setsid') : null;
// A PID namespace of its own, unprivileged (util-linux unshare and user namespaces, as bubblewrap uses).
const unshare = setsid && whichIn('unshare');
const namespaces = Boolean(unshare && spawnSync(unshare, ['-Urpf', 'true']).status === 0);

describe.skipIf(!setsid)(setsid ? 'terminateGroup' : 'terminateGroup — skipped: needs Linux and util-linux setsid', () => {
  it("stops a child that left the group with setsid (as bubblewrap's sandbox does), and the group itself", async () => {
    const marker = `ratchet-escaped-${process.pid}-${Date.now()}`;
    const child = spawn('sh', ['-c', `${setsid} sh -c 'sleep 300 # ${marker}-inner' & sleep 300 # ${marker}-outer`], { detached: true, stdio: 'ignore' });
    await until(() => running(`${marker}-inner`).length > 0 && running(`${marker}-outer`).length > 0, { ms: 10_000, describe: 'both to start' });
    expect(outOfReach(child.pid!)).toHaveLength(1);
    terminateGroup(child.pid, 100);
    await until(() => running(marker).length === 0, { ms: 5000, describe: () => `every process to end; still running:\n${running(marker).join('\n')}` });
  });

  it('finds no escaped group for a group whose children stayed in it, nor for a group that is gone', () => {
    const child = spawn('sh', ['-c', 'sleep 300 & sleep 300'], { detached: true, stdio: 'ignore' });
    try {
      expect(outOfReach(child.pid!)).toEqual([]);
    } finally {
      terminateGroup(child.pid, 100);
    }
    expect(outOfReach(2 ** 22 + 7)).toEqual([]);
  });

  // As bubblewrap's sandbox early in its start: the init of a new PID namespace (which ignores SIGTERM from outside),
  // still in the group, that moves to a session of its own afterwards. Stopped before that, it ran on: the SIGTERM
  // did nothing to it, and the SIGKILL after the grace went to a group it had left.
  it.skipIf(!namespaces)("stops a child that is a PID namespace's init before it can leave the group", async () => {
    const marker = `ratchet-ns-init-${process.pid}-${Date.now()}`;
    const latch = join(mkdtempSync(join(tmpdir(), 'ratchet-ns-latch-')), 'go');
    const init = `while [ ! -f ${latch} ]; do sleep 0.02; done; exec ${setsid} sh -c 'while :; do sleep 0.05; done # ${marker}-inner' # ${marker}`;
    const child = spawn(unshare!, ['-Urpf', 'sh', '-c', init], { detached: true, stdio: 'ignore' });
    await until(() => running(marker).length > 0 && childrenOf(child.pid!).length > 0, { ms: 10_000, describe: 'the namespace to start' });
    expect(outOfReach(child.pid!)).toHaveLength(1);
    terminateGroup(child.pid, 1000);
    // What bubblewrap's sandbox does next, if it is still there: a session of its own.
    writeFileSync(latch, '');
    await until(() => running(marker).length === 0, { ms: 5000, describe: () => `every process to end; still running:\n${running(marker).join('\n')}` });
  });
});
