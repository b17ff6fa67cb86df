// Tests that resolveInside keeps tool paths inside a real temporary worktree, symlinks and .git included.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError, resolveInside } from './confine';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'ratchet-confine-')));
  root = path.join(base, 'wt');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'src', 'a.ts'), 'a');
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(p: string, mode?: 'read' | 'write'): Promise<ToolError> {
  const err: unknown = await resolveInside(root, p, mode).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected ${p} to be refused`).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('resolveInside', () => {
  it('resolves relative paths against the root', async () => {
    expect(await resolveInside(root, 'src/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
    expect(await resolveInside(root, './src/../src/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
  });

  it('accepts absolute paths inside the root and the root itself', async () => {
    expect(await resolveInside(root, path.join(root, 'src', 'a.ts'))).toBe(path.join(root, 'src', 'a.ts'));
    expect(await resolveInside(root, root)).toBe(root);
    expect(await resolveInside(root, '.')).toBe(root);
  });

  it('accepts a file that does not exist yet, in folders that do not exist yet', async () => {
    expect(await resolveInside(root, 'new/deep/file.ts')).toBe(path.join(root, 'new', 'deep', 'file.ts'));
  });

  it('resolves through an unresolved spelling of the root', async () => {
    // The root handed in may itself go through a symlink (like /tmp on macOS); paths spelled that way still work.
    const alias = path.join(base, 'alias');
    await symlink(root, alias);
    expect(await resolveInside(alias, path.join(alias, 'src', 'a.ts'))).toBe(path.join(root, 'src', 'a.ts'));
    expect(await resolveInside(alias, 'src/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
  });

  it('refuses ../ escapes, naming the path and the worktree', async () => {
    const err = await refusal('../outside/secret.txt');
    expect(err.code).toBe('outside_worktree');
    expect(err.message).toContain('../outside/secret.txt');
    expect(err.message).toContain('must stay inside the worktree');
    expect((await refusal('src/../../wt-sibling')).code).toBe('outside_worktree');
  });

  it('refuses a sibling whose name merely starts like the root', async () => {
    await mkdir(`${root}-evil`);
    expect((await refusal(`${root}-evil/x`)).code).toBe('outside_worktree');
  });

  it('allows names that start with two dots', async () => {
    expect(await resolveInside(root, '..hidden')).toBe(path.join(root, '..hidden'));
  });

  it('refuses absolute paths elsewhere', async () => {
    const err = await refusal('/etc/passwd', 'read');
    expect(err.code).toBe('outside_worktree');
    expect(err.message).toContain('/etc/passwd');
  });

  it('refuses a file symlink pointing outside', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    const err = await refusal('link.txt', 'read');
    expect(err.code).toBe('outside_worktree');
    expect(err.message).toContain(path.join(outside, 'secret.txt'));
  });

  it('refuses a directory symlink pointing outside, and new files under it', async () => {
    await symlink(outside, path.join(root, 'linkdir'));
    expect((await refusal('linkdir', 'read')).code).toBe('outside_worktree');
    expect((await refusal('linkdir/secret.txt', 'read')).code).toBe('outside_worktree');
    expect((await refusal('linkdir/new-file.txt')).code).toBe('outside_worktree');
    expect((await refusal('linkdir/new/deeper/file.txt')).code).toBe('outside_worktree');
  });

  it('refuses a dangling symlink pointing outside', async () => {
    await symlink(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling.txt'));
    expect((await refusal('dangling.txt')).code).toBe('outside_worktree');
  });

  it('follows a dangling symlink that stays inside to where it would write', async () => {
    await symlink('src/later.ts', path.join(root, 'later-link.ts'));
    expect(await resolveInside(root, 'later-link.ts')).toBe(path.join(root, 'src', 'later.ts'));
  });

  it('accepts a symlink that stays inside and returns its target', async () => {
    await symlink(path.join(root, 'src'), path.join(root, 'src-link'));
    expect(await resolveInside(root, 'src-link/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
  });

  it('reports symlink loops instead of hanging', async () => {
    await symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    await symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
    expect((await refusal('loop-a/x')).code).toBe('symlink_loop');
  });

  it('refuses writing into .git (directory or worktree file) but allows reading', async () => {
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git', 'config'), '[core]');
    expect((await refusal('.git/config')).code).toBe('git_metadata');
    expect((await refusal('.git/hooks/pre-commit')).code).toBe('git_metadata');
    expect((await refusal('.git')).code).toBe('git_metadata');
    expect((await refusal('sub/.git/HEAD')).code).toBe('git_metadata');
    expect((await refusal('.GIT/config')).code).toBe('git_metadata');
    expect(await resolveInside(root, '.git/config', 'read')).toBe(path.join(root, '.git', 'config'));
    expect(await resolveInside(root, '.gitignore')).toBe(path.join(root, '.gitignore'));
  });

  it('refuses writing through a symlink whose target is in .git', async () => {
    await mkdir(path.join(root, '.git'));
    await symlink(path.join(root, '.git'), path.join(root, 'meta'));
    expect((await refusal('meta/config')).code).toBe('git_metadata');
  });

  it('refuses a .git worktree file', async () => {
    await writeFile(path.join(root, '.git'), 'gitdir: /somewhere/.git/worktrees/wt\n');
    expect((await refusal('.git')).code).toBe('git_metadata');
  });

  it('refuses empty paths and NUL bytes', async () => {
    expect((await refusal('')).code).toBe('invalid_path');
    expect((await refusal('a\0b')).code).toBe('invalid_path');
  });
});
