// What every sandboxed command pays before it starts: no setpriv wrapper around the relays inside (and no relays when it may reach no host), no deep ripgrep scan of Ratchet's launch folder (read-only in the sandbox).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { createOsSandbox, insideSocat, type OsSandbox, type OwnedRunJail } from './os-sandbox';

describe('insideSocat', () => {
  it("swaps the host's setpriv wrapper for the plain socat in a wrapped command, and leaves quoted paths alone", () => {
    const socat = { wrapper: '/tmp/ratchet-socat-x/socat', plain: '/usr/bin/socat' };
    expect(
      insideSocat(
        "bwrap -- sh -c '{ /tmp/ratchet-socat-x/socat TCP6-LISTEN:3128 UNIX-CONNECT:/s || exec /tmp/ratchet-socat-x/socat TCP4-LISTEN:3128 UNIX-CONNECT:/s; }'",
        socat,
      ),
    ).toBe("bwrap -- sh -c '{ /usr/bin/socat TCP6-LISTEN:3128 UNIX-CONNECT:/s || exec /usr/bin/socat TCP4-LISTEN:3128 UNIX-CONNECT:/s; }'");
    expect(insideSocat('x /tmp/a b/socat y', { wrapper: '/tmp/a b/socat', plain: '/usr/bin/socat' })).toBe('x /tmp/a b/socat y');
    expect(insideSocat('unchanged', null)).toBe('unchanged');
  });
});

describe.skipIf(!SANDBOX_AVAILABLE || process.platform !== 'linux')(
  SANDBOX_AVAILABLE ? 'a sandboxed command' : `a sandboxed command — skipped: ${NO_SANDBOX_REASON}`,
  () => {
    let sandbox: OsSandbox;
    let jail: OwnedRunJail;
    let worktree: string;
    const launchDir = realpathSync(tempDir('ratchet-launch-'));
    const before = process.cwd();
    const path = process.env.PATH;
    // A ripgrep that logs how deep the library asks it to go. Ratchet finds its programs once, when the library's
    // session starts (ownProgram), so it is on PATH from the start.
    const rgBin = realpathSync(tempDir('ratchet-rg-'));
    const rgLog = join(rgBin, 'args');
    beforeAll(async () => {
      const rg = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim();
      writeFileSync(join(rgBin, 'rg'), `#!/bin/sh\nprintf '%s\\n' "$@" >> '${rgLog}'\nexec '${rg}' "$@"\n`, { mode: 0o755 });
      process.env.PATH = `${rgBin}:${path}`;
      const repo = makeRepo();
      worktree = join(tempDir(), 'wt');
      sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
      // Ratchet started from a folder of projects.
      mkdirSync(join(launchDir, 'projects', 'app', '.vscode'), { recursive: true });
      process.chdir(launchDir);
      sandbox = createOsSandbox({ mode: 'auto', ratchetHome: tempDir('ratchet-home-'), env: process.env });
      jail = await sandbox.forRun({ worktree, repo, network: [], envNames: [] });
    });
    afterAll(async () => {
      process.env.PATH = path;
      process.chdir(before);
      jail?.release();
      await sandbox?.dispose();
    });

    it("starts its relays with the plain socat, not through the host bridges' setpriv wrapper", async () => {
      // A command with a host to reach: the only kind that starts relays (see relays.test.ts).
      const w = await jail.wrap('/bin/bash', 'echo started', { extraHosts: ['downloads.corp.example'] });
      try {
        const script = w.args.join(' ');
        expect(script).toContain('TCP6-LISTEN:3128');
        expect(script).not.toContain('ratchet-socat-');
        expect(execFileSync(w.file, w.args, { cwd: worktree, env: w.env, encoding: 'utf8' })).toBe('started\n');
      } finally {
        w.done();
      }
    });

    it("scans Ratchet's launch folder for dangerous names no deeper than the library allows", async () => {
      const w = await jail.wrap('/bin/bash', 'true');
      w.done();
      const args = readFileSync(rgLog, 'utf8').split('\n');
      expect(args[args.indexOf('--max-depth') + 1]).toBe('2');
    });
  },
);
