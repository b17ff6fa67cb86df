// The run's own exclude file: beside the worktree (out of the sandbox's reach), the user's own excludes folded in, paths added once and read back.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, isDirty } from './repo-git';
import { pinWorktree } from './worktree-integrity';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { untrackedPaths } from '../worktree-env/prepare-worktree';
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

  it('of a sandboxed run ignores the placeholders a killed Ratchet left in the worktree: no gate leftover, nothing staged, git add does not refuse (CI: kill test run #5)', async () => {
    const repo = makeRepo();
    const worktree = join(tempDir(), 'wt');
    sh(repo, 'worktree', 'add', '-q', '-b', 'task', worktree);
    initRunExcludes(worktree, join(tempDir(), 'none'), { sandboxed: true });
    // What the sandbox leaves when the process holding it dies by kill -9: empty files at the paths it protects.
    mkdirSync(join(worktree, '.claude'));
    for (const rel of ['.claude/commands', '.claude/agents', '.bashrc', '.mcp.json']) writeFileSync(join(worktree, rel), '');
    writeFileSync(join(worktree, 'work.txt'), "the agent's\n");
    const p = pinWorktree(repo, worktree);
    expect(await untrackedPaths(p)).toEqual(['work.txt']);
    await commitAll(p, 'step 1: work');
    expect(sh(repo, 'ls-tree', '--name-only', 'task').split('\n').sort()).toEqual(['README.md', 'work.txt']);
    await expect(isDirty(p)).resolves.toBe(false);
    // A run made before these lines existed gets them on resume, once.
    initRunExcludes(worktree, join(tempDir(), 'none'), { sandboxed: true });
    expect(readFileSync(runExcludesFile(worktree), 'utf8').match(/placeholders/g)).toHaveLength(1);
  });
});
