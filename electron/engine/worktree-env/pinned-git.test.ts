// The worktree environment's own git (what it lists of the worktree, what setup changed) names the worktree's admin dir found from the user's repository: a `.git` file the agent rewrote steers none of it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pinWorktree } from '../git/worktree-integrity';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { trackedChanges, untrackedPaths } from './prepare-worktree';
import { worktreeFiles } from './setup-inputs';

describe("the worktree environment's git", () => {
  it('lists the worktree through its pinned admin dir, not through a .git file rewritten to name another repository', async () => {
    const repo = makeRepo({ 'README.md': '# demo\n', 'package.json': '{}\n' });
    const worktree = join(tempDir(), 'wt');
    sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
    const p = pinWorktree(repo, worktree);
    writeFileSync(join(worktree, 'new.txt'), "the agent's\n");
    writeFileSync(join(worktree, 'README.md'), '# changed\n');
    // Another repository, whose index and work tree say something else entirely.
    const evil = makeRepo({ 'evil.txt': 'x\n', 'Cargo.toml': '[package]\n' });
    mkdirSync(join(evil, 'sub'));
    writeFileSync(join(worktree, '.git'), `gitdir: ${join(evil, '.git')}\n`);

    expect((await worktreeFiles(p)).sort()).toEqual(['README.md', 'new.txt', 'package.json']);
    expect(await untrackedPaths(p)).toEqual(['new.txt']);
    expect(await trackedChanges(p)).toEqual(['README.md']);
  });
});
