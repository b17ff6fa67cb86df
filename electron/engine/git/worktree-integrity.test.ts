// The worktree as Ratchet's git may touch it: its admin dir found from the user's repository, and the fs check that nothing in it names another git dir.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { commitAll, createWorktree, diffTrees, git, isDirty, snapshotTree, treeOf, worktreeViolations } from './repo-git';
import { clearStaleLocks } from './run-refs';
import {
  adoptableWorktree,
  checkWorktreeIntegrity,
  describeViolations,
  holdsRepository,
  isDotGitName,
  pinnedOrNull,
  pinWorktree,
  restoreDotGit,
} from './worktree-integrity';

async function worktree(files: Record<string, string> = { 'a.txt': 'a\n' }) {
  const repo = realpathSync(makeRepo(files));
  const wt = join(realpathSync(tempDir()), 'wt');
  await createWorktree(repo, wt, 'ratchet/x', sh(repo, 'rev-parse', 'HEAD'));
  return { repo, wt, p: pinWorktree(repo, wt), dotGit: readFileSync(join(wt, '.git'), 'utf8') };
}

/** A script that leaves `marker` behind when anything runs it. */
function trap(): { script: string; marker: string } {
  const dir = realpathSync(tempDir());
  const marker = join(dir, 'ran');
  const script = join(dir, 'pwn.sh');
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
  chmodSync(script, 0o755);
  return { script, marker };
}

describe("pinWorktree: the admin dir comes from the user's repository", () => {
  it("finds <repo>/.git/worktrees/<name> whatever the worktree's .git file says", async () => {
    const { repo, wt, p } = await worktree();
    expect(p).toEqual({ worktree: wt, gitDir: join(repo, '.git', 'worktrees', 'wt') });
    writeFileSync(join(wt, '.git'), `gitdir: ${repo}/.git\n`);
    expect(pinWorktree(repo, wt)).toEqual(p);
  });

  it("refuses the user's own checkout, a copy of the worktree elsewhere and a plain folder (what a forged run record could name)", async () => {
    const { repo, wt } = await worktree();
    const copy = join(realpathSync(tempDir()), 'copy');
    cpSync(wt, copy, { recursive: true });
    expect(readFileSync(join(copy, '.git'), 'utf8')).toContain('/.git/worktrees/wt');
    for (const other of [repo, copy, realpathSync(tempDir())]) {
      expect(() => pinWorktree(repo, other)).toThrow(expect.objectContaining({ code: 'worktree_unregistered' }));
      expect(pinnedOrNull(repo, other)).toBeNull();
    }
  });

  it("a rebuilt run may take one of the repository's worktrees or an empty path, never another folder; the repository is never moved aside", async () => {
    const { repo, wt } = await worktree();
    const gone = join(realpathSync(tempDir()), 'gone');
    expect([wt, gone, repo, join(repo, 'src'), realpathSync(tempDir())].map((f) => adoptableWorktree(repo, f))).toEqual([true, true, false, true, false]);
    expect([wt, gone, repo, join(repo, '..'), realpathSync(tempDir())].map((f) => holdsRepository(repo, f))).toEqual([false, false, true, true, false]);
  });

  it('works when the repository is itself a linked worktree of the user (its .git a file, its common dir elsewhere)', async () => {
    const { repo, wt } = await worktree();
    const second = join(realpathSync(tempDir()), 'wt2');
    await createWorktree(wt, second, 'ratchet/y', sh(repo, 'rev-parse', 'HEAD'));
    expect(pinWorktree(wt, second)).toEqual({ worktree: second, gitDir: join(repo, '.git', 'worktrees', 'wt2') });
  });
});

describe('checkWorktreeIntegrity (fs only)', () => {
  it('finds nothing in a fresh worktree', async () => {
    const { p } = await worktree();
    expect(checkWorktreeIntegrity(p)).toEqual([]);
  });

  it('reports a re-pointed, rewritten, removed or replaced .git file, and restoreDotGit puts it back (a link is replaced, never written through)', async () => {
    const { repo, wt, p, dotGit } = await worktree();
    const target = join(realpathSync(tempDir()), 'target');
    writeFileSync(target, 'keep\n');
    const cases: Array<[() => void, RegExp]> = [
      [() => writeFileSync(join(wt, '.git'), `gitdir: ${wt}/.evil\n`), /^re-pointed at .*\/wt\/\.evil$/],
      [() => writeFileSync(join(wt, '.git'), `gitdir: ${repo}/.git\n`), /^re-pointed at .*\/\.git$/],
      [() => writeFileSync(join(wt, '.git'), 'anything\n'), /no "gitdir:" line/],
      [() => rmSync(join(wt, '.git')), /^removed$/],
      [
        () => {
          rmSync(join(wt, '.git'));
          mkdirSync(join(wt, '.git'));
          writeFileSync(join(wt, '.git', 'config'), '[core]\n');
        },
        /directory/,
      ],
      [
        () => {
          rmSync(join(wt, '.git'));
          symlinkSync(target, join(wt, '.git'));
        },
        /link/,
      ],
    ];
    for (const [forge, found] of cases) {
      forge();
      const v = checkWorktreeIntegrity(p);
      expect(v).toHaveLength(1);
      expect(v[0]!.path).toBe('.git');
      expect(v[0]!.found).toMatch(found);
      restoreDotGit(p);
      expect(readFileSync(join(wt, '.git'), 'utf8')).toBe(dotGit);
      expect(checkWorktreeIntegrity(p)).toEqual([]);
    }
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });

  it('reports any other .git below the worktree (folder, file, link, spelled as git reads it on other file systems), without following links', async () => {
    const { wt, p } = await worktree();
    sh(wt, 'init', '-q', 'vendor/lib');
    mkdirSync(join(wt, 'src/deep/er'), { recursive: true });
    writeFileSync(join(wt, 'src/deep/er/.git'), 'gitdir: /elsewhere\n');
    symlinkSync('/tmp', join(wt, 'src/.GIT'));
    // A link to a folder that holds a repository is not followed (git does not follow it either).
    const outside = realpathSync(makeRepo());
    symlinkSync(outside, join(wt, 'linked'));
    const v = checkWorktreeIntegrity(p);
    expect(v.map((x) => x.path).sort()).toEqual(['src/.GIT', 'src/deep/er/.git', 'vendor/lib/.git']);
    expect(v.map((x) => x.found).sort()).toEqual(['a nested repository (directory)', 'a nested repository (file)', 'a nested repository (link)']);
    for (const name of ['.git', '.GIT', '.Git.', '.git ', '.g\u200cit', 'git~1', 'GIT~1']) expect(isDotGitName(name)).toBe(true);
    for (const name of ['.gitignore', '.github', 'git', '.gi', '.gitmodules', 'a.git']) expect(isDotGitName(name)).toBe(false);
    expect(describeViolations(v)).toMatch(/a nested repository \(directory\) at vendor\/lib\/\.git.*remove .*vendor\/lib\/\.git.* before retrying/);
  });

  it('skips the folders git ignores (git never walks them), but not one a .gitignore does not cover', async () => {
    const { wt, p } = await worktree({ 'a.txt': 'a\n', '.gitignore': 'node_modules/\n' });
    sh(wt, 'init', '-q', 'node_modules/pkg');
    expect(checkWorktreeIntegrity(p).map((x) => x.path)).toEqual(['node_modules/pkg/.git']);
    expect(await worktreeViolations(p)).toEqual([]);
    // Not ignored: git would add it as a gitlink, so it is reported.
    sh(wt, 'init', '-q', 'vendor/pkg');
    expect((await worktreeViolations(p)).map((x) => x.path)).toEqual(['vendor/pkg/.git']);
  });
});

describe("Ratchet's git on a worktree (hardened, pinned)", () => {
  /** A worktree holding a nested repository whose clean filter leaves a marker, with its gitlink already staged (as an earlier add would). */
  async function nestedRepoStaged() {
    const w = await worktree();
    const { script, marker } = trap();
    sh(w.wt, 'init', '-q', 'vendor/lib');
    const lib = join(w.wt, 'vendor/lib');
    writeFileSync(join(lib, 'a.txt'), 'a\n');
    sh(lib, 'add', 'a.txt');
    sh(lib, 'commit', '-qm', 'a');
    sh(lib, 'config', 'filter.pwn.clean', script);
    writeFileSync(join(lib, '.gitattributes'), '* filter=pwn\n');
    // The first add stages the gitlink without looking inside (past the check on purpose).
    await git(w.p).raw(['add', '-A']);
    // Touched: git must read the file again (through the filter) to know whether it changed.
    utimesSync(join(lib, 'a.txt'), new Date('2001-01-01T00:00:00Z'), new Date('2001-01-01T00:00:00Z'));
    return { ...w, marker };
  }

  it("git status never runs git inside a nested repository (diff.ignoreSubmodules=all), so the nested repository's filter does not run", async () => {
    const { p, marker } = await nestedRepoStaged();
    expect(await git(p).raw(['status', '--porcelain', '--untracked-files=all'])).toContain('vendor/lib');
    expect(existsSync(marker)).toBe(false);
  });

  it('git add -A would run it (no setting stops that), so every add, commit and status is behind the check: refused, nothing runs', async () => {
    const { p, marker } = await nestedRepoStaged();
    for (const walk of [() => snapshotTree(p), () => commitAll(p, 'step 1: x'), () => isDirty(p)]) {
      await expect(walk()).rejects.toMatchObject({ code: 'sandbox_violation', message: expect.stringContaining('vendor/lib/.git') });
    }
    expect(existsSync(marker)).toBe(false);
    // What the check stands in front of:
    await git(p).raw(['add', '-A']);
    expect(existsSync(marker)).toBe(true);
  });

  it('runs no diff driver: a textconv or external diff named by config never runs for its diffs', async () => {
    const { repo, wt, p } = await worktree({ 'a.txt': 'a\n', '.gitattributes': '* diff=pwn\n' });
    const { script, marker } = trap();
    sh(repo, 'config', 'diff.pwn.textconv', script);
    sh(repo, 'config', 'diff.external', script);
    writeFileSync(join(wt, 'a.txt'), 'b\n');
    const tree = await snapshotTree(p);
    const base = await treeOf(p, 'HEAD');
    expect(await diffTrees(p, base, tree)).toContain('+b');
    expect(await diffTrees(repo, base, tree)).toContain('+b');
    expect(existsSync(marker)).toBe(false);
  });

  it("clears a stale lock only in the worktree's own admin dir, never in a git dir its .git file names", async () => {
    const { repo, wt, p } = await worktree();
    writeFileSync(join(repo, '.git', 'index.lock'), '');
    writeFileSync(join(p.gitDir, 'index.lock'), '');
    writeFileSync(join(wt, '.git'), `gitdir: ${repo}/.git\n`);
    expect(clearStaleLocks(repo, wt)).toEqual([join(p.gitDir, 'index.lock')]);
    expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(true);
  });

  it("commits through the admin dir even when the .git file names the user's repository (with the check bypassed)", async () => {
    const { repo, wt, p } = await worktree();
    const main = sh(repo, 'rev-parse', 'main');
    writeFileSync(join(wt, '.git'), `gitdir: ${repo}/.git\n`);
    writeFileSync(join(wt, 'b.txt'), 'b\n');
    await commitAll(p, 'step 1: b', { checked: true });
    expect(sh(repo, 'rev-parse', 'main')).toBe(main);
    expect(sh(repo, 'log', '-1', '--format=%s', 'ratchet/x')).toBe('step 1: b');
    expect(sh(repo, 'status', '--porcelain')).toBe('');
  });
});
