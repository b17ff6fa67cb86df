// The host's folder browser against a real temporary folder tree.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../testing/temp-repo';
import { browseFolders } from './repo-browse';

describe('browseFolders', () => {
  it('lists subfolders only, marks git repositories, hides dot folders unless asked', () => {
    const root = tempDir();
    mkdirSync(join(root, 'b-plain'));
    mkdirSync(join(root, '.hidden'));
    writeFileSync(join(root, 'file.txt'), 'x');
    const repo = makeRepo();
    symlinkSync(repo, join(root, 'a-repo'));
    const r = browseFolders({ dir: root });
    expect(r.dir).toBe(root);
    expect(r.parent).toBe(join(root, '..'));
    expect(r.entries).toEqual([
      { name: 'a-repo', path: join(root, 'a-repo'), isGitRepo: true },
      { name: 'b-plain', path: join(root, 'b-plain'), isGitRepo: false },
    ]);
    expect(browseFolders({ dir: root, showHidden: true }).entries.map((e) => e.name)).toEqual(['.hidden', 'a-repo', 'b-plain']);
    expect(browseFolders({ dir: repo }).isGitRepo).toBe(true);
  });

  it('starts at the home folder, expands ~, and stops at the root', () => {
    const home = tempDir();
    mkdirSync(join(home, 'code'));
    expect(browseFolders({}, home).dir).toBe(home);
    expect(browseFolders({ dir: '~/code' }, home).dir).toBe(join(home, 'code'));
    expect(browseFolders({ dir: '/' }).parent).toBeNull();
  });

  it('answers a sentence for a relative path, a missing folder and a file', () => {
    const root = tempDir();
    writeFileSync(join(root, 'f'), 'x');
    expect(() => browseFolders({ dir: 'relative/path' })).toThrow(/not a full path/);
    expect(() => browseFolders({ dir: join(root, 'nope') })).toThrow(
      expect.objectContaining({ code: 'not_a_directory', message: expect.stringContaining('does not exist') }),
    );
    expect(() => browseFolders({ dir: join(root, 'f') })).toThrow(
      expect.objectContaining({ code: 'not_a_directory', message: expect.stringContaining('is a file') }),
    );
  });
});
