// The user's own toolchains work in the sandbox as they do outside (rustup/cargo, pyenv, Go, a JDK with Maven), and build caches persist across gates and runs of a repository in <RATCHET_HOME>/cache/<repository>.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { repoCacheDir } from './cache-env';
import { createOsSandbox, type OsSandbox, type OwnedRunJail } from './os-sandbox';
import { runJailed } from './testing/run-jailed';

/** Whether `cmd` runs outside the sandbox with the user's environment, and what it prints. */
function outside(cmd: string, cwd = homedir()): string | null {
  try {
    return execFileSync('/bin/sh', ['-c', cmd], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch {
    return null;
  }
}

const HAS = {
  cargo: outside('cargo --version') !== null,
  go: outside('go version') !== null,
  python: outside('python --version') !== null,
  java: outside('javac -version && mvn --version') !== null,
};

let ratchetHome: string;
let repo: string;
let sandbox: OsSandbox;
let worktrees = 0;

/** A fresh worktree of `repo` (each run has its own), holding `files`. */
function worktree(files: Record<string, string>): string {
  const wt = join(ratchetHome, 'worktrees', `tc-${process.pid}-${++worktrees}`);
  sh(repo, 'worktree', 'add', '-q', '-b', `t${worktrees}`, wt);
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(wt, p, '..'), { recursive: true });
    writeFileSync(join(wt, p), c);
  }
  return wt;
}

async function inJail(wt: string, command: string, timeoutMs = 240_000): Promise<{ output: string; code: number | null; ms: number }> {
  const jail: OwnedRunJail = await sandbox.forRun({ worktree: wt, repo, network: [], envNames: [] });
  const started = Date.now();
  try {
    const r = await runJailed(jail, command, { cwd: wt, timeoutMs });
    return { output: r.output, code: r.code, ms: Date.now() - started };
  } finally {
    jail.release();
  }
}

beforeAll(() => {
  ratchetHome = realpathSync(tempDir('ratchet-tc-home-'));
  repo = realpathSync(tempDir('ratchet-tc-repo-'));
  sh(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), 'x\n');
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-qm', 'initial');
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome, env: process.env });
});

afterAll(async () => {
  await sandbox?.dispose();
  // Go writes its module cache read-only.
  outside(`chmod -R u+w '${ratchetHome}' 2>/dev/null; rm -rf '${ratchetHome}' '${repo}'`);
});

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? "the user's toolchains in the sandbox" : `toolchains — skipped: ${NO_SANDBOX_REASON}`, () => {
  it.skipIf(!HAS.cargo)(
    'rustup and cargo: `cargo test` passes in a crate without dependencies, its registry home in Ratchet’s cache',
    async () => {
      const wt = worktree({
        'Cargo.toml': '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n',
        'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod t { #[test] fn adds() { assert_eq!(super::add(2, 2), 4); } }\n',
        '.gitignore': 'target/\n',
      });
      const r = await inJail(wt, 'cargo test --offline 2>&1; echo "CARGO_HOME=$CARGO_HOME"');
      expect(r.output).toContain('test t::adds ... ok');
      expect(r.output).not.toContain('rustup default stable');
      expect(r.output).toContain(`CARGO_HOME=${join(repoCacheDir(ratchetHome, repo), 'cargo')}`);
    },
    300_000,
  );

  it.skipIf(!HAS.go)(
    'Go: a second gate of the run finds its test result in the cache, and a new run (new worktree, new HOME) its build',
    async () => {
      const files = {
        'go.mod': 'module example.test/tiny\n\ngo 1.19\n',
        'tiny.go': 'package tiny\n\nfunc Add(a, b int) int { return a + b }\n',
        'tiny_test.go': 'package tiny\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal("no")\n\t}\n}\n',
      };
      // `-x` lists the tools go runs: vet runs once per package whose facts are not in the cache yet.
      const vets = (out: string) => out.split('\n').filter((l) => /\/vet /.test(l)).length;
      const first = worktree(files);
      const cold = await inJail(first, 'go test -x ./... 2>&1');
      expect(cold.output).toMatch(/^ok\s+example\.test\/tiny/m);
      const again = await inJail(first, 'go test ./... 2>&1');
      expect(again.output).toMatch(/^ok\s+example\.test\/tiny\s+\(cached\)/m);
      const warm = await inJail(worktree(files), 'go test -count=1 -x ./... 2>&1');
      expect(warm.output).toMatch(/^ok\s+example\.test\/tiny/m);
      expect(vets(cold.output)).toBeGreaterThan(10);
      expect(vets(warm.output)).toBeLessThan(vets(cold.output) / 5);
      expect(readdirSync(join(repoCacheDir(ratchetHome, repo), 'go-build')).length).toBeGreaterThan(0);
      const t0 = Date.now();
      outside('go test -count=1 ./...', first);
      console.log(`go test: sandbox cold ${cold.ms} ms, sandbox warm (new run) ${warm.ms} ms, outside (user's warm cache) ${Date.now() - t0} ms`);
    },
    300_000,
  );

  it.skipIf(!HAS.python)(
    'pyenv: `python` is the version the user has selected, and imports its standard library',
    async () => {
      const want = outside('python -c "import sys; print(sys.version.split()[0])"')?.trim();
      const r = await inJail(worktree({}), 'python -c "import sys, json, sqlite3, ssl; print(\'py\', sys.version.split()[0])" 2>&1');
      expect(r.output).toContain(`py ${want}`);
    },
    120_000,
  );

  it.skipIf(!HAS.java)(
    'a JDK with Maven: javac compiles, java runs, `mvn -o --version` answers, the repository in Ratchet’s cache',
    async () => {
      const wt = worktree({ 'Hello.java': 'public class Hello { public static void main(String[] a) { System.out.println("hello from java"); } }\n' });
      const r = await inJail(
        wt,
        'javac -d "$TMPDIR" Hello.java && java -cp "$TMPDIR" Hello; mvn -o --version 2>&1 | grep -m1 "Apache Maven"; echo "MAVEN_OPTS=$MAVEN_OPTS"',
      );
      expect(r.output).toContain('hello from java');
      expect(r.output).toMatch(/Apache Maven \d/);
      expect(r.output).toContain(`-Dmaven.repo.local=${join(repoCacheDir(ratchetHome, repo), 'maven')}`);
    },
    120_000,
  );

  it('the caches are writable from the sandbox and shared by runs of the repository; Ratchet’s cargo config there is not', async () => {
    const r = await inJail(
      worktree({}),
      `echo shared > "$npm_config_cache/probe" && echo wrote; echo x >> "$CARGO_HOME/config.toml" && echo changed; echo done`,
    );
    expect(r.output).toContain('wrote');
    expect(r.output).not.toContain('changed');
    expect(existsSync(join(repoCacheDir(ratchetHome, repo), 'npm', 'probe'))).toBe(true);
    rmSync(join(repoCacheDir(ratchetHome, repo), 'npm', 'probe'));
  });
});
