// Landing a run's branch on its base and pushing it, against real temporary repositories (a bare one as the remote).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { commitAll, createWorktree } from './repo-git';
import { pinWorktree } from './worktree-integrity';
import { landRun, previewMerge, pullRequestUrl, pushRun } from './run-merge';

/** A repository on main and a run's worktree on ratchet/x with two step commits. */
async function withRun(files: Record<string, string> = { 'a.txt': 'one\n' }) {
  const repo = makeRepo(files);
  const base = sh(repo, 'rev-parse', 'HEAD');
  const wt = join(tempDir(), 'wt');
  await createWorktree(repo, wt, 'ratchet/x', base);
  const p = pinWorktree(repo, wt);
  writeFileSync(join(wt, 'b.txt'), 'two\n');
  await commitAll(p, 'step 1: Add b');
  writeFileSync(join(wt, 'c.txt'), 'three\n');
  await commitAll(p, 'step 2: Add c');
  return { repo, base, wt, p, target: { repo, branch: 'ratchet/x', base: 'main' } };
}

describe('previewMerge', () => {
  it('lists the commits and the diffstat that would land, and says a fast-forward is possible', async () => {
    const { target } = await withRun();
    const p = await previewMerge(target);
    expect(p.commits.map((c) => c.subject)).toEqual(['step 2: Add c', 'step 1: Add b']);
    expect(p.diffstat).toContain('b.txt');
    expect(p.diffstat).toContain('2 files changed');
    expect(p.canFastForward).toBe(true);
    expect(p.conflicts).toEqual([]);
    expect(p.blocked).toBeNull();
  });

  it('names the files that would conflict when the base moved the same lines', async () => {
    const { repo, wt, p: pinned, target } = await withRun();
    writeFileSync(join(wt, 'a.txt'), 'run\n');
    await commitAll(pinned, 'step 3: Change a');
    writeFileSync(join(repo, 'a.txt'), 'user\n');
    sh(repo, 'commit', '-qam', 'user change');
    const p = await previewMerge(target);
    expect(p.canFastForward).toBe(false);
    expect(p.conflicts).toEqual(['a.txt']);
    expect(p.blocked).toContain('conflict in a.txt');
    await expect(landRun(target, 'no-ff')).rejects.toMatchObject({ code: 'merge_conflict' });
  });
});

describe('landRun', () => {
  it('fast-forwards the checked-out base when the checkout is clean', async () => {
    const { repo, target } = await withRun();
    const tip = sh(repo, 'rev-parse', 'ratchet/x');
    const r = await landRun(target, 'ff-only');
    expect(r.commit).toBe(tip);
    expect(sh(repo, 'rev-parse', 'main')).toBe(tip);
    expect(readFileSync(join(repo, 'c.txt'), 'utf8')).toBe('three\n');
    expect(sh(repo, 'status', '--porcelain')).toBe('');
  });

  it('refuses when the checkout of the base has uncommitted changes, and leaves them exactly as they were', async () => {
    const { repo, base, target } = await withRun();
    writeFileSync(join(repo, 'a.txt'), 'my unsaved work\n');
    const p = await previewMerge(target);
    expect(p.checkout?.dirty).toBe(true);
    expect(p.blocked).toContain('uncommitted changes');
    await expect(landRun(target, 'ff-only')).rejects.toMatchObject({ code: 'dirty_tree' });
    await expect(landRun(target, 'no-ff')).rejects.toMatchObject({ code: 'dirty_tree' });
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('my unsaved work\n');
    expect(sh(repo, 'rev-parse', 'main')).toBe(base);
  });

  it('records a merge commit when the base moved without conflict, without touching any working tree on the way', async () => {
    const { repo, target } = await withRun();
    writeFileSync(join(repo, 'u.txt'), 'user\n');
    sh(repo, 'add', 'u.txt');
    sh(repo, 'commit', '-qm', 'user change');
    const userTip = sh(repo, 'rev-parse', 'main');
    await expect(landRun(target, 'ff-only')).rejects.toMatchObject({ code: 'not_fast_forward' });
    const r = await landRun(target, 'no-ff');
    expect(sh(repo, 'rev-parse', 'main')).toBe(r.commit);
    expect(sh(repo, 'rev-parse', `${r.commit}^1`)).toBe(userTip);
    expect(sh(repo, 'rev-parse', `${r.commit}^2`)).toBe(sh(repo, 'rev-parse', 'ratchet/x'));
    expect(sh(repo, 'log', '-1', '--format=%s', 'main')).toBe("Merge branch 'ratchet/x' into main");
    // The checkout followed (fast-forward to the merge commit) and is clean.
    expect(readFileSync(join(repo, 'b.txt'), 'utf8')).toBe('two\n');
    expect(sh(repo, 'status', '--porcelain')).toBe('');
  });

  it('moves a base that is not checked out anywhere, and refuses when it moved since the preview', async () => {
    const { repo, target } = await withRun();
    sh(repo, 'checkout', '-q', '-b', 'elsewhere');
    const p = await previewMerge(target);
    expect(p.checkout).toBeNull();
    sh(repo, 'branch', '-f', 'main', 'HEAD');
    sh(repo, 'commit', '-q', '--allow-empty', '-m', 'moved');
    sh(repo, 'branch', '-f', 'main', 'HEAD');
    await expect(landRun(target, 'no-ff', p.baseTip)).rejects.toMatchObject({ code: 'base_moved' });
    const r = await landRun(target, 'no-ff');
    expect(sh(repo, 'rev-parse', 'main')).toBe(r.commit);
    expect(sh(repo, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('elsewhere');
  });

  it('says there is nothing to merge once the base has the branch', async () => {
    const { target } = await withRun();
    await landRun(target, 'ff-only');
    const p = await previewMerge(target);
    expect(p.upToDate).toBe(true);
    await expect(landRun(target, 'ff-only')).rejects.toMatchObject({ code: 'nothing_to_merge' });
  });
});

describe('pushRun', () => {
  it('pushes the branch to a bare remote', async () => {
    const { repo } = await withRun();
    const remote = tempDir();
    sh(remote, 'init', '-q', '--bare');
    sh(repo, 'remote', 'add', 'origin', remote);
    const r = await pushRun(repo, 'ratchet/x', 'main');
    expect(r.remote).toBe('origin');
    expect(r.pullRequestUrl).toBeNull();
    expect(sh(remote, 'rev-parse', 'ratchet/x')).toBe(sh(repo, 'rev-parse', 'ratchet/x'));
  });

  it('says so when there is no remote', async () => {
    const { repo } = await withRun();
    await expect(pushRun(repo, 'ratchet/x', 'main')).rejects.toMatchObject({ code: 'no_remote' });
  });

  it('says why when the push is refused', async () => {
    const { repo } = await withRun();
    sh(repo, 'remote', 'add', 'origin', join(tempDir(), 'missing.git'));
    await expect(pushRun(repo, 'ratchet/x', 'main')).rejects.toMatchObject({
      code: 'push_failed',
      message: expect.stringContaining('git push origin ratchet/x'),
    });
  });
});

describe('pullRequestUrl', () => {
  it('derives the compare page from GitHub, GitLab and Bitbucket remotes in every URL form', () => {
    expect(pullRequestUrl('git@github.com:me/app.git', 'ratchet/x', 'main')).toBe('https://github.com/me/app/compare/main...ratchet%2Fx?expand=1');
    expect(pullRequestUrl('https://github.com/me/app', 'b', 'main')).toBe('https://github.com/me/app/compare/main...b?expand=1');
    expect(pullRequestUrl('ssh://git@gitlab.example.com:2222/grp/sub/app.git', 'b', 'dev')).toBe(
      'https://gitlab.example.com/grp/sub/app/-/merge_requests/new?merge_request%5Bsource_branch%5D=b&merge_request%5Btarget_branch%5D=dev',
    );
    expect(pullRequestUrl('https://user@bitbucket.org/team/app.git', 'b', 'main')).toBe('https://bitbucket.org/team/app/pull-requests/new?source=b&dest=main');
    expect(pullRequestUrl('/srv/git/app.git', 'b', 'main')).toBeNull();
    expect(pullRequestUrl('https://example.com/me/app.git', 'b', 'main')).toBeNull();
  });
});
