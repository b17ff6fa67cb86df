import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../shared/testing/until';

const bin = join(import.meta.dirname, 'ratchet.mjs');

/** A Node older than 22, with which the launcher starts the project's Node 22 as its child: the system one, where it is older. */
function olderNode(): string | null {
  for (const node of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(node)) continue;
    const major = Number(execFileSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim());
    if (major < 22) return node;
  }
  return null;
}
const OLD_NODE = olderNode();
const REEXEC = OLD_NODE && existsSync(join(import.meta.dirname, '..', 'node_modules', 'node', 'bin', 'node')) && existsSync('/proc/self/stat');

/** The pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // The parent pid is the 4th field, after the command name in parentheses (which may hold spaces).
        return Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('bin/ratchet.mjs', () => {
  it('runs the CLI as a separate process (Node >= 22, TypeScript loaded)', () => {
    const home = mkdtempSync(join(tmpdir(), 'ratchet-bin-'));
    const out = execFileSync(process.execPath, [bin, 'list', '--json'], { env: { ...process.env, RATCHET_HOME: home }, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([]);
  });

  it('exits 2 with usage for no command', () => {
    const r = spawnSync(process.execPath, [bin], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage:');
  });

  describe.skipIf(!REEXEC)(
    REEXEC
      ? "under a Node older than 22 (re-run under the project's Node 22)"
      : 'under a Node older than 22 — skipped: no older Node, no node_modules/node or no /proc here',
    () => {
      for (const sig of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
        it(`${sig} sent to the launcher's pid reaches the real process, and the launcher ends as it did`, async () => {
          const home = mkdtempSync(join(tmpdir(), 'ratchet-bin-'));
          // A command that runs until it is told to stop: the headless host.
          const launcher = spawn(OLD_NODE as string, [bin, 'serve', '--port', '0', '--no-sandbox'], {
            env: { ...process.env, RATCHET_HOME: home },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          launcher.stdout.on('data', (d) => (out += String(d)));
          launcher.stderr.on('data', (d) => (out += String(d)));
          const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
            launcher.on('exit', (code, signal) => ok({ code, signal })),
          );
          const pid = launcher.pid as number;
          let child = 0;
          try {
            await until(() => out.includes('Ratchet is at'), { ms: 60_000, describe: () => `the host to start: ${out}` });
            child = await until(() => childrenOf(pid)[0], { describe: "the launcher's child" });
            process.kill(pid, sig);
            await until(() => !alive(child), { ms: 15_000, describe: `the real process (${child}) to end after ${sig} to the launcher` });
            // serve stops cleanly on SIGINT and SIGTERM (exit 0); SIGHUP ends it by the signal, which the launcher repeats.
            expect(await exited).toEqual(sig === 'SIGHUP' ? { code: null, signal: 'SIGHUP' } : { code: 0, signal: null });
          } finally {
            if (child && alive(child)) process.kill(child, 'SIGKILL');
            if (alive(pid)) process.kill(pid, 'SIGKILL');
          }
        }, 90_000);
      }
    },
  );
});
