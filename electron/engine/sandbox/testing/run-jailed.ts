// Test helper: one command through a run's jail, as a gate runs it (its own process group), with its output and how it ended.
import { spawn } from 'node:child_process';
import type { RunJail } from '../os-sandbox';

export interface JailedResult {
  output: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export async function runJailed(
  jail: RunJail,
  command: string,
  opts: { cwd: string; shell?: string; env?: NodeJS.ProcessEnv; extraHosts?: readonly string[]; viaProxy?: readonly string[]; timeoutMs?: number },
): Promise<JailedResult> {
  const launch = await jail.wrap(opts.shell ?? '/bin/sh', command, { env: opts.env, extraHosts: opts.extraHosts, viaProxy: opts.viaProxy });
  return new Promise((resolve, reject) => {
    const child = spawn(launch.file, launch.args, { cwd: opts.cwd, env: launch.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, opts.timeoutMs ?? 60_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      launch.done();
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      launch.done();
      resolve({ output, code, signal });
    });
  });
}
