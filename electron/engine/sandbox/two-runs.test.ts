// Two runs of one process sandboxed at once (the app runs several): each confined to its own worktree, and one run's release does not pull the proxy from under the other.
import { mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGate } from '../gates/run-gate';
import { tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, sandboxSessionUsers, type OsSandbox } from './os-sandbox';

let home: string;
let server: Server;
let port: number;

beforeAll(async () => {
  home = realpathSync(tempDir('ratchet-two-runs-'));
  server = createServer((_req, res) => res.end('reached'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
  rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'two sandboxed runs in one process' : `two sandboxed runs — skipped: ${NO_SANDBOX_REASON}`, () => {
  it("run gates at once, each only in its own worktree; one engine's release leaves the other's running command its network", async () => {
    const wtA = join(home, 'worktrees', 'a');
    const wtB = join(home, 'worktrees', 'b');
    mkdirSync(wtA, { recursive: true });
    mkdirSync(wtB, { recursive: true });
    // One OsSandbox per engine, as createEngine makes them.
    const sbA: OsSandbox = createOsSandbox({ mode: 'auto', ratchetHome: home, env: process.env });
    const sbB: OsSandbox = createOsSandbox({ mode: 'auto', ratchetHome: home, env: process.env });
    const users = sandboxSessionUsers();
    try {
      const jailA = await sbA.forRun({ worktree: wtA, network: [`127.0.0.1:${port}`], envNames: [] });
      const jailB = await sbB.forRun({ worktree: wtB, network: [], envNames: [] });
      expect(sandboxSessionUsers()).toBe(users + 2);
      const fetch = `curl -sS -m 5 --noproxy '' -x "$HTTP_PROXY" http://127.0.0.1:${port}/`;
      // A's gate is still running (and needs the proxy) when B's engine lets go of the sandbox.
      const gateA = runGate(
        { name: 'a', run: `echo a > mine.txt; echo a > ${wtB}/from-a.txt; sleep 1.5; ${fetch}; echo; echo end-a`, timeoutS: 30 },
        { cwd: wtA, env: process.env, jail: jailA },
      );
      const gateB = runGate(
        { name: 'b', run: `echo b > mine.txt; echo b > ${wtA}/from-b.txt; echo end-b`, timeoutS: 30 },
        { cwd: wtB, env: process.env, jail: jailB },
      );
      const b = await gateB;
      await sbB.dispose();
      const a = await gateA;

      expect(a.output).toContain('reached');
      expect(a.output).toContain('end-a');
      expect(b.output).toContain('end-b');
      // The other run's worktree (under RATCHET_HOME, as the engine puts it) is not even there to write to.
      expect(a.output).toMatch(new RegExp(`${wtB}/from-a.txt: (No such file or directory|Read-only file system)`));
      expect(b.output).toMatch(new RegExp(`${wtA}/from-b.txt: (No such file or directory|Read-only file system)`));
      expect(readFileSync(join(wtA, 'mine.txt'), 'utf8')).toBe('a\n');
      expect(readFileSync(join(wtB, 'mine.txt'), 'utf8')).toBe('b\n');
      expect(() => readFileSync(join(wtA, 'from-b.txt'))).toThrow();
      expect(() => readFileSync(join(wtB, 'from-a.txt'))).toThrow();

      // A keeps running new sandboxed commands with its network after B is gone.
      const again = await runGate({ name: 'a2', run: fetch, timeoutS: 30 }, { cwd: wtA, env: process.env, jail: jailA });
      expect(again.output).toContain('reached');
      expect(sandboxSessionUsers()).toBe(users + 1);
    } finally {
      await sbB.dispose();
      await sbA.dispose();
    }
    expect(sandboxSessionUsers()).toBe(users);
  });
});
