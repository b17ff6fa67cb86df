// Limits in the sandbox (memory and processes per run, /dev/shm sized, file size, disk use) reported as resource_exhaustion; private folders removed with their run; a sandboxed command never outlives the process that started it.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateResult } from '../gates/run-gate';
import { classifyGateFailure } from '../failures/classify';
import { until } from '../testing/service-calls';
import { processesWith } from '../testing/processes';
import { tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import type { SandboxLimits } from '../workflow/schema';
import { DEFAULT_LIMITS } from './limits';
import { makeRunCgroup } from './run-cgroup';
import { createOsSandbox, type OsSandbox } from './os-sandbox';
import { privateRoot, sweepPrivateDirsOf } from './private-dirs';
import { runJailed, type JailedResult } from './testing/run-jailed';

let ratchetHome: string;
let sandbox: OsSandbox;
let n = 0;

beforeAll(() => {
  ratchetHome = realpathSync(tempDir('ratchet-limits-home-'));
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome, env: process.env });
});
afterAll(async () => {
  await sandbox?.dispose();
  rmSync(ratchetHome, { recursive: true, force: true });
});

async function gate(command: string, limits?: SandboxLimits, shell?: string): Promise<JailedResult & { worktree: string }> {
  const worktree = join(ratchetHome, 'worktrees', `limits-${process.pid}-${++n}`);
  mkdirSync(worktree, { recursive: true });
  const jail = await sandbox.forRun({ worktree, network: [], envNames: [], limits });
  try {
    return { ...(await runJailed(jail, command, { cwd: worktree, shell })), worktree };
  } finally {
    jail.release();
  }
}

/** Whether a run's cgroup can be made here (cgroup v2 with memory and pids, or v1's hierarchies, writable). */
const CGROUP = (() => {
  if (!SANDBOX_AVAILABLE || process.platform !== 'linux') return false;
  const cg = makeRunCgroup({ memoryBytes: 64 * 1024 * 1024, pids: 16 });
  cg?.release();
  return cg !== null;
})();
const NO_CGROUP_REASON = 'no writable cgroup here (neither v2 with memory and pids nor v1 memory and pids hierarchies); runs are bounded per process';

/** The gate's result as the classifier sees it. */
function classify(r: JailedResult): string {
  const g: GateResult = {
    name: 'test',
    command: 'x',
    passed: false,
    exitCode: r.code,
    signal: r.signal,
    timedOut: false,
    durationMs: 1,
    output: r.output,
    outputBytes: r.output.length,
    reportXml: null,
    spawnError: null,
  };
  return classifyGateFailure(g, []).errorClass;
}

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'limits in the sandbox' : `limits — skipped: ${NO_SANDBOX_REASON}`, () => {
  it('every command runs under the default limits, which a normal test suite does not reach', async () => {
    const r = await gate('grep -E "Max (data size|file size|processes)" /proc/self/limits');
    const mb = 1024 * 1024;
    expect(r.output).toMatch(new RegExp(`Max file size\\s+${DEFAULT_LIMITS.file_mb * mb}\\s`));
    expect(r.output).toMatch(new RegExp(`Max data size\\s+${DEFAULT_LIMITS.memory_mb * mb}\\s`));
    expect(r.output).toMatch(new RegExp(`Max processes\\s+${DEFAULT_LIMITS.processes}\\s`));
  });

  it('memory_mb: an allocation past it fails, and the gate is resource_exhaustion', async () => {
    const r = await gate('python3 -c "x = bytearray(300 * 1024 * 1024); print(\'allocated\')"', { memory_mb: 100 });
    expect(r.output).not.toContain('allocated');
    expect(r.output).toContain('MemoryError');
    expect(classify(r)).toBe('resource_exhaustion');
  });

  it('file_mb: a file cannot grow past it (SIGXFSZ), and the gate is resource_exhaustion', async () => {
    const r = await gate('head -c 3000000 /dev/zero > big.bin; s=$?; ls -l big.bin; exit $s', { file_mb: 1 });
    expect(r.output).toContain(' 1048576 ');
    expect(r.code).not.toBe(0);
    expect(classify(r)).toBe('resource_exhaustion');
  });

  it('processes: the limit is set inside the sandbox (enforced for users other than root)', async () => {
    const r = await gate('grep "Max processes" /proc/self/limits; i=0; while [ $i -lt 60 ]; do sleep 5 & i=$((i+1)); done 2>&1 | tail -1; echo done', {
      processes: 30,
    });
    expect(r.output).toMatch(/Max processes\s+30\s+30/);
    // RLIMIT_NPROC does not bind uid 0, so only another user sees the fork fail.
    if (process.getuid?.() !== 0) {
      expect(r.output).toMatch(/fork|Resource temporarily unavailable/);
      expect(classify({ ...r, code: 2 })).toBe('resource_exhaustion');
    }
  });

  it('disk_mb: a command that keeps writing is stopped once the worktree and its folders grew past it, as resource_exhaustion', async () => {
    const r = await gate('i=0; while [ $i -lt 60 ]; do head -c 1000000 /dev/zero > "f$i"; i=$((i+1)); sleep 0.25; done; echo finished', { disk_mb: 3 });
    expect(r.output).not.toContain('finished');
    expect(r.output).toContain('Disk quota exceeded');
    expect(classify(r)).toBe('resource_exhaustion');
    expect(readdirSync(r.worktree).length).toBeLessThan(60);
  }, 60_000);

  it("a command's bare `wait` returns when its own jobs end: the disk watcher, on by default, is none of them", async () => {
    const worktree = join(ratchetHome, 'worktrees', `limits-${process.pid}-${++n}`);
    mkdirSync(worktree, { recursive: true });
    const jail = await sandbox.forRun({ worktree, network: [], envNames: [] });
    try {
      const r = await runJailed(jail, 'sleep 0.1 & wait; echo waited', { cwd: worktree, timeoutMs: 20_000 });
      expect(r.output).toContain('waited');
      expect(r.code).toBe(0);
    } finally {
      jail.release();
    }
  }, 30_000);

  it('/dev/shm is a sized tmpfs: writing 1 GB there is refused at the default limits, as resource_exhaustion', async () => {
    const r = await gate('head -c 1073741824 /dev/zero > /dev/shm/big; s=$?; echo "size $(wc -c < /dev/shm/big)"; df -k /dev/shm | tail -1; exit $s');
    const size = Number(/size (\d+)/.exec(r.output)?.[1]);
    expect(size).toBeLessThanOrEqual(512 * 1024 * 1024);
    expect(r.output).toMatch(/No space left on device/);
    expect(r.code).not.toBe(0);
    expect(classify(r)).toBe('resource_exhaustion');
  });

  it.skipIf(!CGROUP)(
    CGROUP
      ? 'memory_mb bounds the run: three processes of 300 MB each under 512 MB are not all let through, and the gate is resource_exhaustion'
      : `memory per run — skipped: ${NO_CGROUP_REASON}`,
    async () => {
      // Each holds its 300 MB (well under the per-process limit) until all three hold theirs or one of them is gone.
      const hold = [
        'import os, sys, time',
        'x = b"x" * (300 * 1024 * 1024)',
        'open(f"held-{sys.argv[1]}", "w").close()',
        'deadline = time.time() + 60',
        'while time.time() < deadline and not os.path.exists("stop") and len([f for f in os.listdir(".") if f.startswith("held-")]) < 3: time.sleep(0.05)',
        'print("allocated", sys.argv[1], flush=True)',
      ].join('\n');
      const r = await gate(
        [
          `cat > hold.py <<'EOF'`,
          hold,
          'EOF',
          'for i in 1 2 3; do python3 hold.py $i & done',
          'fail=0',
          'for k in 1 2 3; do wait -n || { fail=1; : > stop; }; done',
          'exit $fail',
        ].join('\n'),
        { memory_mb: 512 },
        'bash',
      );
      expect(r.output.match(/^allocated/gm)?.length ?? 0).toBeLessThan(3);
      expect(r.code).not.toBe(0);
      expect(r.output).toContain('ratchet: Out of memory');
      expect(classify(r)).toBe('resource_exhaustion');
    },
    90_000,
  );

  it.skipIf(!CGROUP)(
    CGROUP
      ? 'processes bounds the run, root included: two commands of one run together start no more than the limit'
      : `processes per run — skipped: ${NO_CGROUP_REASON}`,
    async () => {
      const worktree = join(ratchetHome, 'worktrees', `limits-${process.pid}-${++n}`);
      mkdirSync(worktree, { recursive: true });
      const jail = await sandbox.forRun({ worktree, network: [], envNames: [], limits: { processes: 50 } });
      // Each starts up to 30 sleepers (either alone fits; both do not), says how many, and keeps them until the other
      // is done. dash: a failed fork ends the loop's subshell, and only builtins follow it, so none is left to fail.
      const bomb = (me: string, other: string) =>
        `( i=0; while [ $i -lt 30 ]; do sleep 60 & i=$((i+1)); echo "$i" > started-${me}; done ) 2>/dev/null; : > done-${me}; ` +
        `while [ ! -e done-${other} ]; do :; done; read c < started-${me}; echo "${me} started $c"`;
      try {
        const [a, b] = await Promise.all([
          runJailed(jail, bomb('a', 'b'), { cwd: worktree, shell: '/bin/sh', timeoutMs: 60_000 }),
          runJailed(jail, bomb('b', 'a'), { cwd: worktree, shell: '/bin/sh', timeoutMs: 60_000 }),
        ]);
        const started = (out: string, me: string) => Number(new RegExp(`${me} started (\\d+)`).exec(out)?.[1]);
        expect(started(a.output, 'a')).toBeGreaterThan(0);
        expect(started(b.output, 'b')).toBeGreaterThan(0);
        expect(started(a.output, 'a') + started(b.output, 'b')).toBeLessThanOrEqual(50);
      } finally {
        jail.release();
      }
    },
    90_000,
  );

  it('the private folder (HOME and TMPDIR inside) is removed when the run lets its jail go', async () => {
    const r = await gate('echo "$HOME" "$TMPDIR"; echo x > "$HOME/file"; echo y > "$TMPDIR/file"');
    const [home, tmp] = r.output.trim().split(' ');
    expect(home?.startsWith(privateRoot())).toBe(true);
    expect(existsSync(home!)).toBe(false);
    expect(existsSync(tmp!)).toBe(false);
  });
});

describe('the sweep of private folders at engine start', () => {
  it("removes a finished run's folder once its process is gone, an unknown one after a day; keeps one in use and a resumable run's", () => {
    const root = tempDir('ratchet-sweep-');
    const dead = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const make = (name: string, owner?: string) => {
      mkdirSync(join(root, name, 'home', 'go', 'pkg'), { recursive: true });
      if (owner) writeFileSync(join(root, `${name}.owner`), `${owner}\n`);
    };
    make('finished-run', dead);
    make('finished-in-use', String(process.pid));
    make('paused-run', dead);
    make('unknown-old', dead);
    make('unknown-fresh', dead);
    make('legacy-old');
    const twoDaysAgo = (Date.now() - 48 * 3600_000) / 1000;
    for (const p of ['unknown-old.owner', 'legacy-old']) utimesSync(join(root, p), twoDaysAgo, twoDaysAgo);
    // Go leaves its module cache read-only: the sweep removes it all the same.
    execFileSync('chmod', ['-R', 'a-w', join(root, 'finished-run', 'home')]);
    const runs = [
      { worktree: '/r/worktrees/finished-run', finished_at: '2026-01-01T00:00:00Z' },
      { worktree: '/r/worktrees/finished-in-use', finished_at: '2026-01-01T00:00:00Z' },
      { worktree: '/r/worktrees/paused-run', finished_at: null },
    ];
    try {
      expect(sweepPrivateDirsOf(runs, root).sort()).toEqual(['finished-run', 'legacy-old', 'unknown-old'].map((n) => join(root, n)));
      expect(readdirSync(root).sort()).toEqual([
        'finished-in-use',
        'finished-in-use.owner',
        'paused-run',
        'paused-run.owner',
        'unknown-fresh',
        'unknown-fresh.owner',
      ]);
    } finally {
      execFileSync('chmod', ['-R', 'u+w', root]);
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!SANDBOX_AVAILABLE || process.platform !== 'linux')(
  SANDBOX_AVAILABLE ? 'a sandboxed command whose caller dies' : `orphaned commands — skipped: ${NO_SANDBOX_REASON}`,
  () => {
    it('is gone with it, even killed with SIGKILL (bubblewrap is exec’d, so --die-with-parent binds it to the caller)', async () => {
      const marker = `ratchet-orphan-${process.pid}-${Date.now()}`;
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'testing', 'orphan-command-child.ts'), ratchetHome, marker], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      try {
        await until(() => out.includes('\n') && processesWith(marker).length > 0, 30_000);
      } catch {
        throw new Error(`the child never started its command: ${out}${err}`);
      }
      child.kill('SIGKILL');
      await until(() => child.exitCode !== null || child.signalCode !== null, 10_000);
      await until(() => processesWith(marker).length === 0, 10_000).catch(() => undefined);
      const left = processesWith(marker);
      // Leave nothing behind whatever the outcome.
      for (const line of left) {
        try {
          process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      expect(left).toEqual([]);
    }, 60_000);
  },
);
