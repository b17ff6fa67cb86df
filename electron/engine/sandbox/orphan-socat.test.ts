// A process that used the sandbox leaves no socat bridge behind, whether it exits, just closes its engine, or is killed with SIGKILL.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../../../shared/testing/until';
import { tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';

const FIXTURE = join(import.meta.dirname, 'testing', 'one-gate-child.ts');
const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** Alive and not a zombie waiting for init to reap it. */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(stat, 'utf8'));
  } catch {
    return false;
  }
}

/** Runs the fixture; `kill` SIGKILLs it once it has reported. Resolves with what it reported and how it ended. */
function runChild(how: 'exit' | 'close' | 'kill'): Promise<{ report: { status: string; socat: number[] }; code: number | null; signal: string | null }> {
  const home = tempDir('ratchet-orphan-home-');
  homes.push(home);
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, home, how === 'kill' ? 'wait' : how], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child did not end within 20 s (${how}); it said: ${out}${err}`));
    }, 20_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (how === 'kill' && out.includes('\n')) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      try {
        resolve({ report: JSON.parse(out.trim().split('\n').pop() ?? ''), code, signal });
      } catch {
        reject(new Error(`no report from the child (${code ?? signal}): ${out}${err}`));
      }
    });
  });
}

describe.skipIf(!SANDBOX_AVAILABLE || process.platform !== 'linux')(
  SANDBOX_AVAILABLE ? 'socat bridges of a process that is done' : `socat bridges — skipped: ${NO_SANDBOX_REASON}`,
  () => {
    for (const how of ['exit', 'close', 'kill'] as const) {
      it(`are gone after the process ${how === 'exit' ? 'calls process.exit()' : how === 'close' ? 'closes its engine and ends' : 'is killed with SIGKILL'}`, async () => {
        const { report, code, signal } = await runChild(how);
        expect(report.status).toBe('succeeded');
        // The child did start bridges (so this test can fail).
        expect(report.socat.length).toBeGreaterThan(0);
        if (how === 'kill') expect(signal).toBe('SIGKILL');
        else expect(code).toBe(0);
        await until(() => report.socat.every((pid) => !alive(pid)), {
          ms: 5000,
          describe: () => `the bridges to end: ${report.socat.filter(alive).join(', ')}`,
        });
      }, 40_000);
    }
  },
);
