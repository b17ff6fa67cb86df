// Test helper: runs the `ratchet` CLI in-process with captured stdout and stderr and no terminal.
import { PassThrough } from 'node:stream';
import { main } from '../main';

export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const code = await main(args, { stdout, stderr, stdin, env });
  return { code, out, err };
}

/** The CLI with only PATH and HOME from this process, plus `env`. */
export const cli = (args: string[], env: NodeJS.ProcessEnv) => runCli(args, { PATH: process.env.PATH, HOME: process.env.HOME, ...env });
