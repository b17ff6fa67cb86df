// Runs one shell command in Ratchet's own OS sandbox, as a gate runs (network: the hosts after the command), and
// prints its output; exits with the command's exit code. Used by record-classify.sh to record real refusals.
// Usage: npx tsx scripts/record-corpus/in-sandbox.ts <dir> <command> [host…]
import { runGate } from '../../electron/engine/gates/run-gate';
import { createOsSandbox } from '../../electron/engine/sandbox/os-sandbox';

async function main(): Promise<void> {
  const [cwd, command, ...hosts] = process.argv.slice(2);
  if (!cwd || !command) throw new Error('usage: in-sandbox.ts <dir> <command> [host…]');
  const sandbox = createOsSandbox({ mode: 'auto', ratchetHome: process.env.RECORD_RATCHET_HOME ?? '/tmp/rc-home', env: process.env });
  if (sandbox.status.state !== 'on') throw new Error(`no sandbox here: ${sandbox.status.message}`);
  // The toolchain selectors a user's environment has (rustup's home is not the sandbox's private HOME).
  const envNames = ['RUSTUP_HOME', 'RUSTUP_TOOLCHAIN'];
  const jail = await sandbox.forRun({ worktree: cwd, network: hosts, envNames });
  const r = await runGate({ name: 'record', run: command, timeoutS: 300 }, { cwd, env: jail.env, jail });
  process.stdout.write(r.output);
  await sandbox.dispose();
  process.exitCode = r.exitCode ?? 1;
}

void main();
