// A worktree is added apart from the repository's other git changes made in this process (a team worker's fetches into
// its clone): a fetch that met a half-added worktree failed with "bad object worktrees/<name>/HEAD" (team-kill, stop 39).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { createWorktree, git } from './repo-git';
import { serialized } from './repo-lock';
import { recreateWorktree } from './run-refs';

describe('repo-lock', () => {
  it('a worktree is not added while a fetch holds its repository, and is added once it lets go', async () => {
    const repo = makeRepo();
    const head = sh(repo, 'rev-parse', 'HEAD').trim();
    const worktree = join(tempDir(), 'wt');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = serialized(repo, () => gate);
    const adding = createWorktree(repo, worktree, 'ratchet/held', head);
    // Forty git commands' time (run as child processes while the event loop goes on): far more than an unheld `worktree prune` + `worktree add` takes.
    for (let i = 0; i < 40; i++) {
      await git(repo).raw(['rev-parse', 'HEAD']);
      expect(existsSync(join(worktree, '.git')), `added while held (after ${i + 1} commands)`).toBe(false);
    }
    release();
    await held;
    await adding;
    expect(existsSync(join(worktree, '.git'))).toBe(true);
    // The same for a worktree made again from the run's branch (recovery, a taken-over team run).
    sh(repo, 'worktree', 'remove', '--force', worktree);
    const gate2 = new Promise<void>((r) => (release = r));
    const again = serialized(repo, () => gate2);
    const re = recreateWorktree(repo, worktree, 'ratchet/held');
    for (let i = 0; i < 40; i++) {
      await git(repo).raw(['rev-parse', 'HEAD']);
      expect(existsSync(join(worktree, '.git'))).toBe(false);
    }
    release();
    await again;
    await re;
    expect(existsSync(join(worktree, '.git'))).toBe(true);
  });

  it('runs the work of one key in order, whatever the outcome of the work before', async () => {
    const order: string[] = [];
    const a = serialized('k', async () => {
      order.push('a');
      throw new Error('a failed');
    });
    const b = serialized('k', async () => {
      order.push('b');
      return 2;
    });
    await expect(a).rejects.toThrow('a failed');
    expect(await b).toBe(2);
    expect(order).toEqual(['a', 'b']);
  });
});
