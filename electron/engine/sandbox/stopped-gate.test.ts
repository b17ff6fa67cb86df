// A sandboxed gate that is stopped (the user's Stop, a host shutdown, a timeout) leaves nothing running: bubblewrap puts the
// command in a session of its own, out of reach of a kill of the gate's process group.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../shared/testing/until';
import { runGate } from '../gates/run-gate';
import { tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, type OsSandbox } from './os-sandbox';

let home: string;
let sb: OsSandbox;

beforeAll(() => {
  home = realpathSync(tempDir('ratchet-stopped-gate-'));
  sb = createOsSandbox({ mode: 'auto', ratchetHome: home, env: process.env });
});

afterAll(async () => {
  await sb.dispose();
  rmSync(home, { recursive: true, force: true });
});

/** Processes whose command line holds `marker`, as `ps` lists them. */
function running(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(marker) && !l.includes('ps -eo'));
}

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'a stopped sandboxed gate' : `a stopped sandboxed gate — skipped: ${NO_SANDBOX_REASON}`, () => {
  it('is killed with everything it started when the run is stopped', async () => {
    const wt = join(home, 'worktrees', 'stop');
    mkdirSync(wt, { recursive: true });
    const jail = await sb.forRun({ worktree: wt, network: [], envNames: [] });
    const marker = `ratchet-stop-marker-${process.pid}-${Date.now()}`;
    const ac = new AbortController();
    const gate = runGate(
      { name: 'test', run: `echo started; while true; do sleep 0.05; done # ${marker}`, timeoutS: 60 },
      { cwd: wt, env: process.env, jail, signal: ac.signal },
    );
    await until(() => running(marker).length > 0, { ms: 10_000, describe: 'the gate to start' });
    ac.abort();
    const r = await gate;
    expect(r.passed).toBe(false);
    await until(() => running(marker).length === 0, {
      ms: 5000,
      describe: () => `its processes to end after the stop; still running:\n${running(marker).join('\n')}`,
    });
  }, 30_000);

  it('leaves nothing running when stopped in its first milliseconds, while bubblewrap is still starting', async () => {
    const wt = join(home, 'worktrees', 'early');
    mkdirSync(wt, { recursive: true });
    const jail = await sb.forRun({ worktree: wt, network: [], envNames: [] });
    const marker = `ratchet-early-marker-${process.pid}-${Date.now()}`;
    // Stops 0–9 ms after the start: some land before bubblewrap made its sandbox, some while it makes it, some after.
    for (let i = 0; i < 20; i++) {
      const ac = new AbortController();
      const gate = runGate(
        { name: 'test', run: `while true; do sleep 0.05; done # ${marker}`, timeoutS: 60 },
        { cwd: wt, env: process.env, jail, signal: ac.signal },
      );
      setTimeout(() => ac.abort(), i % 10);
      await gate;
    }
    await until(() => running(marker).length === 0, {
      ms: 5000,
      describe: () => `every stopped gate to end; still running:\n${running(marker).join('\n')}`,
    }).finally(() => {
      for (const line of running(marker)) {
        try {
          process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
        } catch {
          // Gone.
        }
      }
    });
  }, 60_000);

  it('is killed when its timeout runs out', async () => {
    const wt = join(home, 'worktrees', 'timeout');
    mkdirSync(wt, { recursive: true });
    const jail = await sb.forRun({ worktree: wt, network: [], envNames: [] });
    const marker = `ratchet-timeout-marker-${process.pid}-${Date.now()}`;
    const r = await runGate({ name: 'test', run: `while true; do sleep 0.05; done # ${marker}`, timeoutS: 1 }, { cwd: wt, env: process.env, jail });
    expect(r.timedOut).toBe(true);
    await until(() => running(marker).length === 0, {
      ms: 5000,
      describe: () => `its processes to end after the timeout; still running:\n${running(marker).join('\n')}`,
    });
  }, 30_000);
});
