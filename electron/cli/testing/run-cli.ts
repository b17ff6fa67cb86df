// Test helper: runs the `ratchet` CLI in-process with captured stdout and stderr and no terminal.
import { PassThrough } from 'node:stream';
import { SANDBOX_AVAILABLE } from '../../engine/testing/sandbox-mode';
import { main } from '../main';

/**
 * `answers`: a terminal is simulated (isTTY) and each answer is typed once the question before it (a pattern) has been
 * printed on stderr, in order — as a user would. An answer given as a function is called at that moment (to change
 * something while the question is open) and types what it returns.
 */
export type Answer = [RegExp, string | (() => string)];

/** `onErr`, when given, is called with everything printed on stderr so far each time more arrives (to wait for a line mid-run). */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  answers?: Answer[],
  onErr?: (err: string) => void,
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const stdin = Object.assign(new PassThrough(), { isTTY: Boolean(answers) });
  const pending = [...(answers ?? [])];
  let seen = 0;
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => {
    err += String(d);
    onErr?.(err);
    const next = pending[0];
    if (next && next[0].test(err.slice(seen))) {
      pending.shift();
      seen = err.length;
      const typed = typeof next[1] === 'function' ? next[1]() : next[1];
      setImmediate(() => stdin.write(`${typed}\n`));
    }
  });
  // Runs are sandboxed where the machine has a sandbox, and opt out explicitly where it has none (a fresh machine).
  const opted = !SANDBOX_AVAILABLE && ['run', 'retry', 'restart', 'resume', 'review'].includes(args[0] ?? '') ? [...args, '--no-sandbox'] : args;
  const code = await main(opted, { stdout, stderr, stdin, env });
  return { code, out, err };
}

/** The CLI with only PATH and HOME from this process, plus `env`. */
export const cli = (args: string[], env: NodeJS.ProcessEnv, answers?: Answer[], onErr?: (err: string) => void) =>
  runCli(args, { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, answers, onErr);
