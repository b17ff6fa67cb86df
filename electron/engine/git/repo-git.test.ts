import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import {
  branchTip,
  git,
  gitLog,
  commitAll,
  conflictedFiles,
  createWorktree,
  inspectRepo,
  isAncestor,
  isDirty,
  rebaseOnto,
  saveAttemptRef,
  snapshotTree,
  headCommit,
  diffTrees,
  treeOf,
} from './repo-git';
import { completedSteps } from './step-commits';
import { pinWorktree } from './worktree-integrity';

describe('inspectRepo', () => {
  it('describes a normal repository', async () => {
    const repo = makeRepo();
    const info = await inspectRepo(repo);
    expect(info.branch).toBe('main');
    expect(info.headCommit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('refuses a folder that is not a repository, a bare one, one without commits, and a missing path', async () => {
    await expect(inspectRepo(tempDir())).rejects.toMatchObject({ code: 'not_git_repo' });
    const bare = tempDir();
    sh(bare, 'init', '-q', '--bare');
    await expect(inspectRepo(bare)).rejects.toMatchObject({ code: 'bare_repo' });
    const empty = tempDir();
    sh(empty, 'init', '-q');
    await expect(inspectRepo(empty)).rejects.toMatchObject({ code: 'no_commits', message: expect.stringContaining('git commit') });
    await expect(inspectRepo(join(tempDir(), 'nope'))).rejects.toMatchObject({ code: 'not_a_directory' });
  });
});

describe('worktree, snapshots and step commits', () => {
  it('works in its own worktree and never touches the user checkout', async () => {
    const repo = makeRepo({ 'a.txt': 'one\n' });
    const base = sh(repo, 'rev-parse', 'HEAD');
    const wt = join(tempDir(), 'wt');
    await createWorktree(repo, wt, 'ratchet/demo-abc', base);
    const p = pinWorktree(repo, wt);
    writeFileSync(join(wt, 'b.txt'), 'two\n');
    expect(await isDirty(p)).toBe(true);
    const tree = await snapshotTree(p);
    const ref = await saveAttemptRef(p, 'refs/ratchet/r1/1/1', tree, base, 'attempt');
    expect(sh(repo, 'rev-parse', 'refs/ratchet/r1/1/1')).toBe(ref);
    expect(await diffTrees(p, await treeOf(p, base), tree)).toContain('+two');
    const c1 = await commitAll(p, 'step 1: Add b');
    const c2 = await commitAll(p, 'step 2: Nothing to change');
    expect(await headCommit(p)).toBe(c2);
    expect(await completedSteps(repo, base, 'ratchet/demo-abc')).toEqual([
      { index: 1, sha: c1, subject: 'step 1: Add b' },
      { index: 2, sha: c2, subject: 'step 2: Nothing to change' },
    ]);
    // The user's checkout: still on main at the base, clean, without b.txt.
    expect(sh(repo, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(sh(repo, 'rev-parse', 'HEAD')).toBe(base);
    expect(sh(repo, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(repo, 'b.txt'))).toBe(false);
  });
});

describe('abortInProgress', () => {
  it('ends a merge left half-done by a conflict (found in the admin dir git keeps for the worktree)', async () => {
    const { abortInProgress } = await import('./repo-git');
    const repo = makeRepo({ 'a.txt': 'base\n' });
    sh(repo, 'checkout', '-q', '-b', 'other');
    writeFileSync(join(repo, 'a.txt'), 'other\n');
    sh(repo, 'commit', '-qam', 'other');
    sh(repo, 'checkout', '-q', 'main');
    const wt = join(tempDir(), 'wt');
    await createWorktree(repo, wt, 'ratchet/x', sh(repo, 'rev-parse', 'main'));
    const p = pinWorktree(repo, wt);
    writeFileSync(join(wt, 'a.txt'), 'run\n');
    sh(wt, 'commit', '-qam', 'run');
    expect(() => sh(wt, 'merge', 'other')).toThrow();
    expect(existsSync(join(p.gitDir, 'MERGE_HEAD'))).toBe(true);
    expect(await abortInProgress(p)).toEqual(['merge']);
    expect(existsSync(join(p.gitDir, 'MERGE_HEAD'))).toBe(false);
    expect(sh(wt, 'status', '--porcelain')).toBe('');
  });
});

describe('rebaseOnto (seed 002: one rebase after a git conflict)', () => {
  async function runBranch(baseChange: Record<string, string>) {
    const repo = makeRepo({ 'a.txt': 'one\n' });
    const wt = join(tempDir(), 'wt');
    await createWorktree(repo, wt, 'ratchet/x', sh(repo, 'rev-parse', 'HEAD'));
    const p = pinWorktree(repo, wt);
    writeFileSync(join(wt, 'a.txt'), 'run\n');
    const step1 = await commitAll(p, 'step 1: edit a');
    writeFileSync(join(wt, 'wip.txt'), 'work in progress\n');
    await snapshotTree(p);
    for (const [f, text] of Object.entries(baseChange)) writeFileSync(join(repo, f), text);
    sh(repo, 'add', '-A');
    sh(repo, 'commit', '-q', '-m', 'base moved');
    return { repo, wt, p, step1, tip: sh(repo, 'rev-parse', 'main') };
  }

  it('replays the branch onto the moved base and keeps the uncommitted work', async () => {
    const { repo, wt, p, tip } = await runBranch({ 'b.txt': 'base\n' });
    const r = await rebaseOnto(p, tip);
    expect(r.ok).toBe(true);
    expect(await isAncestor(p, tip, 'HEAD')).toBe(true);
    expect(sh(repo, 'log', '--format=%s', 'ratchet/x')).toBe('step 1: edit a\nbase moved\ninitial');
    expect(existsSync(join(wt, 'wip.txt'))).toBe(true);
    expect(existsSync(join(wt, 'b.txt'))).toBe(true);
  });

  it('aborts a rebase that conflicts: the branch, its commits and the work in progress are as before', async () => {
    const { wt, p, step1, tip } = await runBranch({ 'a.txt': 'base\n' });
    const r = await rebaseOnto(p, tip);
    expect(r).toMatchObject({ ok: false, files: ['a.txt'] });
    expect(await headCommit(p)).toBe(step1);
    expect(await conflictedFiles(p)).toEqual([]);
    expect(sh(wt, 'status', '--porcelain')).toContain('wip.txt');
    expect(await branchTip(wt, 'ratchet/x')).toBe(step1);
  });
});

describe('git().raw (the one way the engine runs git)', () => {
  it('resolves with stdout, rejects with stderr on a failure, and answers a quiet miss with empty output', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const g = git(repo);
    expect((await g.raw(['rev-parse', '--is-inside-work-tree'])).trim()).toBe('true');
    await expect(g.raw(['rev-parse', '--verify', 'no-such-ref'])).rejects.toThrow(/fatal: Needed a single revision/);
    expect(await g.raw(['rev-parse', '--verify', '--quiet', 'refs/heads/none'])).toBe('');
    expect(await g.raw(['config', '--get', 'no.such'])).toBe('');
  });

  it('run() answers with the exit code and both streams, for commands whose exit code is the answer', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const head = sh(repo, 'rev-parse', 'HEAD');
    sh(repo, 'commit', '-q', '--allow-empty', '-m', 'second');
    expect(await git(repo).run(['merge-base', '--is-ancestor', head, 'HEAD'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await git(repo).run(['merge-base', '--is-ancestor', 'HEAD', head])).toEqual({ code: 1, stdout: '', stderr: '' });
    expect(await git(repo).run(['rev-parse', '--verify', 'no-such-ref'])).toMatchObject({ code: 128, stderr: expect.stringContaining('fatal:') });
  });

  it('runs the git commands of a commit once each: the ignored-folder listing of the integrity check, one identity lookup, no repeated add', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const wt = join(tempDir(), 'wt');
    await createWorktree(repo, wt, 'ratchet/x', sh(repo, 'rev-parse', 'HEAD'));
    writeFileSync(join(wt, 'b.txt'), 'b\n');
    gitLog.commands = [];
    gitLog.record = true;
    try {
      await commitAll(pinWorktree(repo, wt), 'step 1: b');
    } finally {
      gitLog.record = false;
    }
    expect(gitLog.commands.map((c) => c.args.filter((a) => !a.startsWith('user.') && a !== '-c')[0])).toEqual([
      'ls-files',
      'add',
      'config',
      'commit',
      'rev-parse',
    ]);
  });
});

describe("simple-git's unsafe-operation check: no argument can make Ratchet's git run a program", () => {
  // Each vector runs `touch <marker>` when plain git is given it (the control), so a missing marker proves the block.
  function vectors() {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const marker = join(tempDir(), 'ran');
    const program = `touch ${marker}; git-upload-pack`;
    return {
      repo,
      marker,
      cases: [
        { name: '--upload-pack', args: ['fetch', `--upload-pack=${program}`, repo], refusal: /--upload-pack or --receive-pack is not permitted/ },
        // The check does not expand abbreviations; git refuses them itself (GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS).
        { name: 'an abbreviated --upload-pack', args: ['fetch', `--upload-pac=${program}`, repo], refusal: /disallowed abbreviated or ambiguous option/ },
        {
          name: '-c core.sshCommand',
          args: ['-c', `core.sshCommand=touch ${marker}`, 'fetch', 'ssh://localhost/x'],
          refusal: /core\.sshCommand is not permitted/,
        },
      ],
    };
  }

  it('the vectors do run a program when git runs them plainly (the control)', () => {
    const { repo, marker, cases } = vectors();
    for (const c of cases) {
      rmSync(marker, { force: true });
      try {
        sh(repo, ...c.args);
      } catch {
        /* the fetch itself may fail; the program has run by then */
      }
      expect(existsSync(marker), c.name).toBe(true);
    }
  });

  it('refuses each one, saying why, and the program never runs', async () => {
    const { repo, marker, cases } = vectors();
    for (const c of cases) {
      await expect(git(repo).raw(c.args), c.name).rejects.toThrow(c.refusal);
      expect(existsSync(marker), c.name).toBe(false);
    }
  });

  it('checks the extra config a caller passes too', async () => {
    const { repo, marker } = vectors();
    await expect(git(repo, [`core.sshCommand=touch ${marker}`]).raw(['fetch', 'ssh://localhost/x'])).rejects.toThrow(/core\.sshCommand is not permitted/);
    expect(existsSync(marker)).toBe(false);
  });
});
