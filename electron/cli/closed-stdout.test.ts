// A closed stdout (`ratchet list | head -1`) ends the command quietly, as git does: no EPIPE stack trace, the command's own exit code (issue 29 item 8).
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const BIN = join(ROOT, 'bin', 'ratchet.mjs');
const NODE = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : join(ROOT, 'node_modules', 'node', 'bin', 'node');

/** Runs the built CLI with its stdout a pipe whose reading end is closed at once: every write it makes meets EPIPE. */
function withClosedStdout(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; err: string }> {
  return new Promise((done) => {
    const child = spawn(NODE, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (code) => done({ code, err }));
  });
}

describe('a closed stdout', () => {
  it('ends `ratchet init` and `ratchet list` quietly with exit 0, and a failing command keeps its exit code', async () => {
    const home = tempDir('ratchet-epipe-');
    const repo = makeRepo({ 'go.mod': 'module example.com/x\n' });
    const init = await withClosedStdout(['init', repo], { RATCHET_HOME: home });
    expect(init.err).not.toMatch(/EPIPE|Error|at /);
    expect(init.code).toBe(0);
    const list = await withClosedStdout(['list'], { RATCHET_HOME: home });
    expect(list.err).not.toMatch(/EPIPE|Error|at /);
    expect(list.code).toBe(0);
    const help = await withClosedStdout(['--help'], { RATCHET_HOME: home });
    expect(help.err).not.toMatch(/EPIPE|Error|at /);
    expect(help.code).toBe(0);
    // A command that fails says so on stderr and keeps its code: a closed stdout does not turn it into a success.
    const bad = await withClosedStdout(['init', repo], { RATCHET_HOME: home });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/already exists/);
  }, 60_000);
});
