#!/usr/bin/env node
// Entry point of the `ratchet` command. --help is answered at once from the built usage text, on any Node; other commands
// need Node >= 22 (better-sqlite3 13), then run the CLI built to plain JavaScript in out/cli (rebuilt when a source file is
// newer), or the TypeScript sources through tsx when it cannot be built.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'out', 'cli');
const argv = process.argv.slice(2);

/** Whether out/cli was built from the sources as they are now. */
function builtAndFresh() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(join(outDir, 'inputs.json'), 'utf8'));
    return inputs.every((p) => statSync(join(root, p)).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

let fresh = builtAndFresh();
if (fresh) {
  const usage = await import(pathToFileURL(join(outDir, 'usage.mjs')).href).catch(() => null);
  const help = usage?.helpAnswer(argv);
  if (help) {
    process[help.stream].write(help.text);
    process.exit(help.code);
  }
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  const local = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(local) || process.env.RATCHET_REEXEC) {
    process.stderr.write(`ratchet needs Node 22 or newer (this is ${process.version}). Run \`npm install\` in ${root} to get it, or install Node 22.\n`);
    process.exit(2);
  }
  await new Promise(() => reexec(local));
}

/**
 * Runs this script again under `node` and lives exactly as long as it: SIGTERM and SIGHUP sent to this process go to
 * the child (a supervisor or `kill <pid>` stops the real Ratchet, not only this launcher), and so does SIGINT unless
 * a terminal is attached, whose Ctrl-C already reaches the child (twice would mean "quit at once"). This process then
 * ends as the child did: its exit code, or the same signal.
 */
function reexec(node) {
  const child = spawn(node, [fileURLToPath(import.meta.url), ...argv], { stdio: 'inherit', env: { ...process.env, RATCHET_REEXEC: '1' } });
  const forwarded = ['SIGTERM', 'SIGHUP', ...(process.stdin.isTTY ? [] : ['SIGINT'])];
  const handlers = new Map();
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    const handler = () => {
      if (forwarded.includes(sig) && child.exitCode === null && child.signalCode === null) child.kill(sig);
    };
    handlers.set(sig, handler);
    process.on(sig, handler);
  }
  child.on('error', (err) => {
    process.stderr.write(`ratchet could not start ${node}: ${err.message}\n`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => {
    for (const [sig, handler] of handlers) process.off(sig, handler);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

if (!fresh && !process.env.RATCHET_NO_BUILD) {
  try {
    const { buildCli } = await import(pathToFileURL(join(root, 'scripts', 'build-cli.mjs')).href);
    await buildCli();
    fresh = true;
  } catch {
    // No esbuild here, or a read-only checkout: the sources run through tsx instead.
  }
}
let started = false;
if (fresh) {
  try {
    await import(pathToFileURL(join(outDir, 'entry.mjs')).href);
    started = true;
  } catch (err) {
    // Only a build swapped out from under us falls back; any other error is the CLI's own.
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
  }
}
if (!started) {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../electron/cli/main.ts');
  process.exitCode = await main(argv);
}
