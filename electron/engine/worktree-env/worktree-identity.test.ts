// A worktree deleted and made again is told apart from the one prepared, though the new folder often gets the old inode back.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp-repo';
import { sameWorktree, worktreeIdentity } from './run-environment';

describe('the worktree identity', () => {
  it('differs for a folder made again at the same path, even with the same inode', () => {
    const dir = join(tempDir(), 'wt');
    mkdirSync(dir);
    const before = worktreeIdentity(dir);
    const ino = statSync(dir).ino;
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    const after = worktreeIdentity(dir);
    if (statSync(dir).birthtimeMs === 0) return; // a file system without birth times: the inode is all there is
    expect(sameWorktree(before, after)).toBe(false);
    // What made the old check pass: the inode came back (usually; the check above does not rely on it).
    if (statSync(dir).ino === ino) expect(after.split(':').slice(0, 2)).toEqual(before.split(':').slice(0, 2));
    expect(sameWorktree(after, worktreeIdentity(dir))).toBe(true);
  });

  it('compares device and inode for an identity stored before birth times were kept', () => {
    expect(sameWorktree('66:123', '66:123:1795718224757997')).toBe(true);
    expect(sameWorktree('66:124', '66:123:1795718224757997')).toBe(false);
    expect(sameWorktree(null, '66:123:1')).toBe(false);
  });
});
