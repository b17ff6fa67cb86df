// Build caches are per repository: a run of one repository cannot change what a run of another reads from them.
import { existsSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sh, tempDir } from '../testing/temp-repo';
import { NO_SANDBOX_REASON, SANDBOX_AVAILABLE } from '../testing/sandbox-mode';
import { cacheEnv, cacheRoot, repoCacheDir } from './cache-env';
import { createOsSandbox, type OsSandbox } from './os-sandbox';
import { runJailed } from './testing/run-jailed';

let ratchetHome: string;
let repoA: string;
let repoB: string;
let sandbox: OsSandbox;
let n = 0;

function makeRepo(prefix: string): string {
  const repo = realpathSync(tempDir(prefix));
  sh(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), 'x\n');
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-qm', 'initial');
  return repo;
}

/** One command in a new run of `repo` (its own worktree, as the engine makes them). */
async function runOf(repo: string, command: string): Promise<string> {
  const wt = join(ratchetHome, 'worktrees', `cache-${process.pid}-${++n}`);
  sh(repo, 'worktree', 'add', '-q', '--detach', wt);
  const jail = await sandbox.forRun({ worktree: wt, repo, network: [], envNames: [] });
  try {
    return (await runJailed(jail, command, { cwd: wt })).output;
  } finally {
    jail.release();
  }
}

beforeAll(() => {
  ratchetHome = realpathSync(tempDir('ratchet-cache-home-'));
  repoA = makeRepo('ratchet-cache-a-');
  repoB = makeRepo('ratchet-cache-b-');
  sandbox = createOsSandbox({ mode: 'auto', ratchetHome, env: process.env });
});

afterAll(async () => {
  await sandbox?.dispose();
  for (const d of [ratchetHome, repoA, repoB]) rmSync(d, { recursive: true, force: true });
});

describe('the cache folder of a repository', () => {
  it('is one for a checkout and its worktrees, another for another repository, both under <RATCHET_HOME>/cache', () => {
    const wt = join(ratchetHome, 'worktrees', `cache-key-${process.pid}`);
    sh(repoA, 'worktree', 'add', '-q', '--detach', wt);
    expect(repoCacheDir(ratchetHome, wt)).toBe(repoCacheDir(ratchetHome, repoA));
    expect(repoCacheDir(ratchetHome, repoB)).not.toBe(repoCacheDir(ratchetHome, repoA));
    expect(repoCacheDir(ratchetHome, repoA).startsWith(`${cacheRoot(ratchetHome)}/`)).toBe(true);
    expect(cacheEnv(repoCacheDir(ratchetHome, repoA)).GOMODCACHE).toBe(join(repoCacheDir(ratchetHome, repoA), 'go-mod'));
  });
});

describe.skipIf(!SANDBOX_AVAILABLE)(SANDBOX_AVAILABLE ? 'caches of two repositories' : `caches — skipped: ${NO_SANDBOX_REASON}`, () => {
  it("a run on repository A that rewrites a module in its Go module cache changes nothing a run on B reads; A's next run finds it", async () => {
    const mod = 'example.com/lib@v1.0.0';
    const a = await runOf(
      repoA,
      `mkdir -p "$GOMODCACHE/${mod}" && echo 'package lib; func init() { steal() }' > "$GOMODCACHE/${mod}/lib.go" && echo rewrote; echo "$GOMODCACHE"`,
    );
    expect(a).toContain('rewrote');
    const cacheA = a.trim().split('\n').pop()!;

    // B's own cache, and A's by its path: neither holds A's change.
    const b = await runOf(repoB, `cat "$GOMODCACHE/${mod}/lib.go" 2>&1; cat ${JSON.stringify(join(cacheA, mod, 'lib.go'))} 2>&1; echo end`);
    expect(b).toContain('end');
    expect(b).not.toContain('steal');

    const again = await runOf(repoA, `cat "$GOMODCACHE/${mod}/lib.go"`);
    expect(again).toContain('steal');
    expect(existsSync(join(repoCacheDir(ratchetHome, repoB), 'go-mod', mod, 'lib.go'))).toBe(false);
  });
});
