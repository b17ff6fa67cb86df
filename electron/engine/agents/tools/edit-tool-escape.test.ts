// The edit tool cannot be walked out of the worktree through a hard link or a directory swapped for a symlink after the path check.
import { link, mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEditTool } from './edit-tool';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'ratchet-escape-')));
  root = path.join(base, 'wt');
  outside = path.join(base, 'home');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'KEEP\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('hard links', () => {
  it('refuses str_replace, insert and create on a file hard-linked from outside the worktree', async () => {
    await link(path.join(outside, 'secret.txt'), path.join(root, 'linked.txt'));
    for (const input of [
      { command: 'str_replace', path: 'linked.txt', old_str: 'KEEP', new_str: 'PWNED' },
      { command: 'insert', path: 'linked.txt', insert_line: 0, insert_text: 'PWNED' },
      { command: 'create', path: 'linked.txt', file_text: 'PWNED\n' },
    ]) {
      const out = await runEditTool(root, input);
      expect(out.isError, out.content).toBe(true);
      expect(out.content).toMatch(/hard link/);
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('KEEP\n');
  });
});

describe('a directory swapped for a symlink between the check and the write', () => {
  async function swap(): Promise<void> {
    // What a concurrent agent process would do: move the checked folder away and put a symlink to outside in its place.
    await rename(path.join(root, 'sub'), path.join(root, 'sub.old'));
    await symlink(outside, path.join(root, 'sub'));
  }

  it('does not rewrite the file outside (str_replace)', async () => {
    await mkdir(path.join(root, 'sub'));
    await writeFile(path.join(root, 'sub', 'secret.txt'), 'KEEP\n');
    const out = await runEditTool(root, { command: 'str_replace', path: 'sub/secret.txt', old_str: 'KEEP', new_str: 'PWNED' }, { afterCheck: swap });
    expect(out.isError, out.content).toBe(true);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('KEEP\n');
  });

  it('does not write a file outside (create over an existing one)', async () => {
    await mkdir(path.join(root, 'sub'));
    await writeFile(path.join(root, 'sub', 'secret.txt'), 'old\n');
    const out = await runEditTool(root, { command: 'create', path: 'sub/secret.txt', file_text: 'PWNED\n' }, { afterCheck: swap });
    expect(out.isError, out.content).toBe(true);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('KEEP\n');
  });

  it('still edits normally when nothing is swapped', async () => {
    await mkdir(path.join(root, 'sub'));
    await writeFile(path.join(root, 'sub', 'a.txt'), 'one\n');
    const out = await runEditTool(root, { command: 'str_replace', path: 'sub/a.txt', old_str: 'one', new_str: 'two' }, { afterCheck: async () => {} });
    expect(out.isError, out.content).toBe(false);
    expect(await readFile(path.join(root, 'sub', 'a.txt'), 'utf8')).toBe('two\n');
  });
});
