// Where there is no OS sandbox the CLI refuses to run (exit 2, saying what to install or which flag to use); --no-sandbox runs, with a loud warning.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../engine/testing/temp-repo';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const BIN = join(ROOT, 'bin', 'ratchet.mjs');
const NODE = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : join(ROOT, 'node_modules', 'node', 'bin', 'node');
const GIT = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

describe('a machine with no OS sandbox', () => {
  // A PATH holding only node, git and sh: bubblewrap, socat and ripgrep are "not installed", whatever this machine has.
  const bin = tempDir('ratchet-nosbx-bin-');
  symlinkSync(NODE, join(bin, 'node'));
  symlinkSync(GIT, join(bin, 'git'));
  symlinkSync('/bin/sh', join(bin, 'sh'));
  const repo = makeRepo({ 'a.txt': 'a\n' });
  writeFileSync(
    join(repo, 'ratchet.yml'),
    'gates: { ok: "exit 0" }\nagent: { kind: command, command: ["sh", "-c", "echo done > out.txt"] }\nbackoff: { base_s: 0, max_s: 0, jitter: 0 }\nsteps:\n  - title: one\n',
  );
  const home = join(tempDir('ratchet-nosbx-home-'), 'h');
  mkdirSync(home);
  const run = (...extra: string[]) =>
    spawnSync(NODE, [BIN, 'run', repo, '--yes', '--trust', '--json', ...extra], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: bin, HOME: home, RATCHET_HOME: home },
    });

  it.skipIf(process.platform !== 'linux')('refuses a run with exit 2 and says what to install or which flag to use', () => {
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/No OS sandbox is available here \(.*bubblewrap/);
    expect(r.stderr).toContain('apt-get install bubblewrap socat ripgrep');
    expect(r.stderr).toContain('--no-sandbox');
  });

  it.skipIf(process.platform !== 'linux')('runs with --no-sandbox, saying loudly that the sandbox is off', () => {
    const r = run('--no-sandbox');
    expect(r.stderr).toContain('WARNING: the OS sandbox is OFF');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('succeeded');
  });
});
