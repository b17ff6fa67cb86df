// The run's own exclude file: beside the worktree (out of the sandbox's reach), the user's own excludes folded in, paths added once and read back.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../testing/temp-repo';
import { addRunExcludes, excludeLine, initRunExcludes, runExcludes, runExcludesConfig, runExcludesFile } from './run-excludes';

describe('the run exclude file', () => {
  it('lives beside the worktree, not in it, and is only passed to git once it exists', () => {
    const root = tempDir();
    const wt = join(root, 'app-abc123');
    expect(runExcludesFile(wt)).toBe(join(root, '.ratchet-env', 'app-abc123', 'exclude'));
    expect(runExcludesConfig(wt)).toEqual([]);
  });

  it("folds in the user's own excludes (core.excludesFile replaces them) and adds each path once, anchored and escaped", () => {
    const root = tempDir();
    const wt = join(root, 'wt');
    const own = join(root, 'global-ignore');
    writeFileSync(own, '*.swp\n.DS_Store');
    initRunExcludes(wt, own);
    expect(addRunExcludes(wt, ['node_modules/', '.env'], 'copied')).toEqual(['node_modules/', '.env']);
    expect(addRunExcludes(wt, ['.env', '#odd name!'], 'again')).toEqual(['#odd name!']);
    const text = readFileSync(runExcludesFile(wt), 'utf8');
    expect(text).toContain('*.swp\n.DS_Store\n');
    expect(text).toContain('/node_modules/\n/.env\n');
    expect(text).toContain('/\\#odd name\\!\n');
    expect(runExcludes(wt)).toEqual(['node_modules/', '.env', '#odd name!']);
    expect(excludeLine('a b ')).toBe('/a b\\ ');
  });

  it("keeps what it names out of git's view of the worktree, and the user's own excludes still apply", () => {
    const repo = makeRepo();
    const own = join(tempDir(), 'ignore');
    writeFileSync(own, '*.log\n');
    initRunExcludes(repo, own);
    addRunExcludes(repo, ['.venv/'], 'left by the gates');
    mkdirSync(join(repo, '.venv'));
    writeFileSync(join(repo, '.venv', 'pyvenv.cfg'), '');
    writeFileSync(join(repo, 'debug.log'), '');
    writeFileSync(join(repo, 'new.txt'), '');
    const status = execFileSync('git', ['-c', runExcludesConfig(repo)[0]!, 'status', '--porcelain', '--untracked-files=all'], { cwd: repo, encoding: 'utf8' });
    expect(status).toBe('?? new.txt\n');
  });
});
