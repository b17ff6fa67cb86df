// Files git does not carry, dependencies the checkout already has, and what gates leave behind: in the worktree for the run, never committed, never written back to the checkout.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import { makeRepo } from '../testing/temp-repo';
import { changedIn, closeEngine, envEngine, logLines, payloads, runWorkflow } from '../testing/worktree-env-fixtures';

let engine: Engine;
afterEach(async () => {
  if (engine) await closeEngine(engine);
});

const LOCK = JSON.stringify(
  {
    name: 'app',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'app', dependencies: { dep: '1.0.0' } }, 'node_modules/dep': { version: '1.0.0' } },
  },
  null,
  2,
);

/** A node project whose checkout has node_modules installed (dep exports 42, with a .bin link). */
function installedNodeProject(): string {
  const repo = makeRepo({
    'package.json': '{"name":"app","dependencies":{"dep":"1.0.0"}}\n',
    'package-lock.json': `${LOCK}\n`,
    '.gitignore': 'node_modules/\n',
  });
  mkdirSync(join(repo, 'node_modules', 'dep'), { recursive: true });
  mkdirSync(join(repo, 'node_modules', '.bin'));
  writeFileSync(join(repo, 'node_modules', 'dep', 'index.js'), 'module.exports = 42;\n');
  writeFileSync(join(repo, 'node_modules', 'dep', 'cli.js'), '#!/usr/bin/env node\nconsole.log(require("./index.js"));\n');
  symlinkSync('../dep/cli.js', join(repo, 'node_modules', '.bin', 'dep'));
  return repo;
}

describe('copy:', () => {
  it('brings files git does not carry from the checkout; they are never committed and never written back', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'README.md': '# app\n', 'config/defaults.json': '{}\n' });
    writeFileSync(join(repo, '.env'), 'SECRET=1\n');
    writeFileSync(join(repo, 'config', 'local.json'), '{"db":"local"}\n');
    const r = await runWorkflow(
      engine,
      repo,
      `
copy: [".env", "config/*.json"]
gates: { test: "grep -q SECRET=1 seen.txt && grep -q local config/local.json" }
agent: { kind: command, command: ["sh", "-c", "cat .env > seen.txt; echo SECRET=2 >> .env; echo local-changed > config/local.json"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(r.committed()).toEqual(['seen.txt']);
    expect(r.doc.environment?.copied).toEqual(['.env', 'config/local.json']);
    // config/defaults.json is tracked: the commit's, not the checkout's copy.
    expect(readFileSync(join(repo, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(readFileSync(join(repo, 'config', 'local.json'), 'utf8')).toBe('{"db":"local"}\n');
  });
});

describe('dependencies from the checkout', () => {
  it("are a real copy of its node_modules when the lockfile is the same: setup that only installs them is skipped, the agent cannot change the checkout's", async () => {
    engine = envEngine();
    const repo = installedNodeProject();
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "npm ci --no-audit"
gates: { test: "node -e \\"process.exit(require('dep') === 43 ? 0 : 1)\\" && test \\"$(readlink node_modules/.bin/dep)\\" = ../dep/cli.js" }
agent: { kind: command, command: ["sh", "-c", "echo 'module.exports = 43;' > node_modules/dep/index.js; date > work.txt"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(r.doc.environment?.reused).toEqual([
      expect.objectContaining({ path: 'node_modules/', because: 'package-lock.json is the same as in your checkout' }),
    ]);
    expect(r.doc.environment?.setup).toMatchObject({ outcome: 'skipped', durationMs: 0 });
    expect(payloads(r.events, 'setup.started')).toEqual([]);
    expect(readFileSync(join(repo, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('module.exports = 42;\n');
    const mine = join(r.worktree, 'node_modules', 'dep', 'index.js');
    expect(statSync(mine).ino).not.toBe(statSync(join(repo, 'node_modules', 'dep', 'index.js')).ino);
    expect(lstatSync(join(r.worktree, 'node_modules')).isSymbolicLink()).toBe(false);
    expect(readlinkSync(join(r.worktree, 'node_modules', '.bin', 'dep'))).toBe('../dep/cli.js');
    expect(r.committed()).toEqual(['work.txt']);
  });

  it("are not copied when the checkout's lockfile differs from the base commit's: setup installs them", async () => {
    engine = envEngine();
    const repo = installedNodeProject();
    writeFileSync(join(repo, 'package-lock.json'), `${LOCK.replace('1.0.0', '1.0.1')}\n`);
    const r = await runWorkflow(
      engine,
      repo,
      `
setup: "mkdir -p node_modules/dep && echo 'module.exports = 7;' > node_modules/dep/index.js"
gates: { test: "node -e \\"process.exit(require('dep') === 7 ? 0 : 1)\\"" }
agent: { kind: command, command: ["sh", "-c", "date > work.txt"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(r.doc.environment?.reused ?? []).toEqual([]);
    expect(r.doc.environment?.setup).toMatchObject({ outcome: 'ok' });
    expect(logLines(r.events)).toContain("node_modules not copied from your checkout: its package-lock.json differs from the base commit's");
  });
});

const CARGO_TOML = '[package]\nname = "rle"\nversion = "0.1.0"\nedition = "2021"\n';
const CARGO_LOCK = '# This file is automatically @generated by Cargo.\nversion = 3\n\n[[package]]\nname = "rle"\nversion = "0.1.0"\n';

/** A Rust crate whose checkout was built: target/ holds a build (a compiled test binary, its fingerprint). The project does not ignore target/. */
function builtRustCrate(): string {
  const repo = makeRepo({ 'Cargo.toml': CARGO_TOML, 'Cargo.lock': CARGO_LOCK, 'src/lib.rs': 'pub fn one() -> u32 { 1 }\n' });
  mkdirSync(join(repo, 'target', 'debug', '.fingerprint', 'rle-1234'), { recursive: true });
  writeFileSync(join(repo, 'target', 'debug', '.fingerprint', 'rle-1234', 'lib-rle'), 'a1b2c3\n');
  writeFileSync(join(repo, 'target', 'debug', 'built.txt'), 'warm\n');
  return repo;
}

describe('a Rust build from the checkout', () => {
  it("is a real copy of its target/ when Cargo.lock and Cargo.toml are the same: never committed, the agent cannot change the checkout's", async () => {
    engine = envEngine();
    const repo = builtRustCrate();
    const r = await runWorkflow(
      engine,
      repo,
      `
gates: { test: "grep -q warm target/debug/built.txt && test -f target/debug/.fingerprint/rle-1234/lib-rle" }
agent: { kind: command, command: ["sh", "-c", "echo changed > target/debug/built.txt; echo warm >> target/debug/built.txt; date > work.txt"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(r.doc.environment?.reused).toEqual([
      expect.objectContaining({ path: 'target/', because: 'Cargo.lock and Cargo.toml are the same as in your checkout' }),
    ]);
    expect(lstatSync(join(r.worktree, 'target')).isSymbolicLink()).toBe(false);
    const mine = join(r.worktree, 'target', 'debug', 'built.txt');
    expect(statSync(mine).ino).not.toBe(statSync(join(repo, 'target', 'debug', 'built.txt')).ino);
    expect(readFileSync(join(repo, 'target', 'debug', 'built.txt'), 'utf8')).toBe('warm\n');
    expect(r.committed()).toEqual(['work.txt']);
  });

  it("is not copied when the checkout's Cargo.lock differs from the base commit's", async () => {
    engine = envEngine();
    const repo = builtRustCrate();
    writeFileSync(join(repo, 'Cargo.lock'), CARGO_LOCK.replace('0.1.0', '0.1.1'));
    const r = await runWorkflow(
      engine,
      repo,
      `
gates: { test: "test ! -e target/debug/built.txt" }
agent: { kind: command, command: ["sh", "-c", "date > work.txt"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(r.doc.environment?.reused ?? []).toEqual([]);
    expect(logLines(r.events)).toContain("target not copied from your checkout: its Cargo.lock differs from the base commit's");
  });

  it("is not copied when the checkout's Cargo.toml differs from the base commit's", async () => {
    engine = envEngine();
    const repo = builtRustCrate();
    writeFileSync(join(repo, 'Cargo.toml'), `${CARGO_TOML}\n[features]\nfast = []\n`);
    const r = await runWorkflow(
      engine,
      repo,
      `
gates: { test: "test ! -e target/debug/built.txt" }
agent: { kind: command, command: ["sh", "-c", "date > work.txt"] }
steps: [{ title: one }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(r.doc.environment?.reused ?? []).toEqual([]);
    expect(logLines(r.events)).toContain("target not copied from your checkout: its Cargo.toml differs from the base commit's");
  });
});

describe('what gates leave behind', () => {
  it('is not committed: a gate that makes a virtualenv-like folder the project does not ignore leaves it out of step 1 and step 2, and the user is told', async () => {
    engine = envEngine();
    const repo = makeRepo({ 'README.md': '# app\n' });
    const r = await runWorkflow(
      engine,
      repo,
      `
gates: { test: "mkdir -p .venv/lib/site-packages && touch .venv/pyvenv.cfg .venv/lib/site-packages/big.py && echo built > build.log" }
agent: { kind: command, command: ["sh", "-c", "date +%s%N > work.txt"] }
steps: [{ title: one }, { title: two }]
`,
    );
    expect(r.doc.status).toBe('succeeded');
    expect(changedIn(r.worktree, 'HEAD~1')).toEqual(['work.txt']);
    expect(changedIn(r.worktree, 'HEAD')).toEqual(['work.txt']);
    expect(execFileSync('git', ['log', '--format=%s', '-2'], { cwd: r.worktree, encoding: 'utf8' })).toBe('step 2: two\nstep 1: one\n');
    expect(logLines(r.events)).toContain(
      'the gates left files the project does not track: .venv/, build.log. Ratchet does not commit them; add them to .gitignore.',
    );
  });
});
