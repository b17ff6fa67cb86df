// Git hardening: config the agent writes (core.fsmonitor, hooks) never runs inside Ratchet's git, and is reverted after an attempt.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, sh, tempDir } from '../testing/temp-repo';
import { createWorktree, isDirty, commitAll } from './repo-git';
import { guardRepoConfig, restoreRepoConfig, snapshotRepoConfig } from './repo-config-guard';
import { pinWorktree, type PinnedWorktree } from './worktree-integrity';

function trap(): { script: string; marker: string } {
  const dir = tempDir();
  const marker = join(dir, 'ran');
  const script = join(dir, 'evil.sh');
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
  chmodSync(script, 0o755);
  return { script, marker };
}

async function worktreeOf(files: Record<string, string> = { 'a.txt': 'one\n' }): Promise<{ repo: string; wt: string; p: PinnedWorktree }> {
  const repo = makeRepo(files);
  const wt = join(tempDir(), 'wt');
  await createWorktree(repo, wt, 'ratchet/guard', sh(repo, 'rev-parse', 'HEAD'));
  return { repo, wt, p: pinWorktree(repo, wt) };
}

describe('hardened git', () => {
  it('does not run a core.fsmonitor command the agent set in its worktree (it lands in the main repo config)', async () => {
    const { repo, wt, p } = await worktreeOf();
    const { script, marker } = trap();
    sh(wt, 'config', 'core.fsmonitor', script); // what the agent's bash tool can do
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toContain('fsmonitor');
    writeFileSync(join(wt, 'b.txt'), 'two\n');
    expect(await isDirty(p)).toBe(true);
    await commitAll(p, 'step 1: b');
    expect(existsSync(marker)).toBe(false);
  });

  it('does not run hooks the agent installed through core.hooksPath or .git/hooks', async () => {
    const { repo, wt, p } = await worktreeOf();
    const { script, marker } = trap();
    const hooks = tempDir();
    writeFileSync(join(hooks, 'pre-commit'), readFileSync(script));
    chmodSync(join(hooks, 'pre-commit'), 0o755);
    sh(wt, 'config', 'core.hooksPath', hooks);
    writeFileSync(join(repo, '.git', 'hooks', 'post-commit'), readFileSync(script));
    chmodSync(join(repo, '.git', 'hooks', 'post-commit'), 0o755);
    writeFileSync(join(wt, 'b.txt'), 'two\n');
    await commitAll(p, 'step 1: b');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('repo config guard', () => {
  it('reverts and reports config the agent changed during an attempt, in the main config and config.worktree', async () => {
    const { repo, wt } = await worktreeOf();
    const before = readFileSync(join(repo, '.git', 'config'), 'utf8');
    const snap = await snapshotRepoConfig(wt);
    sh(wt, 'config', 'core.fsmonitor', '/tmp/evil');
    sh(wt, 'config', 'extensions.worktreeConfig', 'true');
    sh(wt, 'config', '--worktree', 'filter.x.clean', '/tmp/evil');
    const changed = await restoreRepoConfig(snap);
    expect(changed.length).toBeGreaterThanOrEqual(2);
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(before);
    expect(changed.some((p) => p.endsWith('config.worktree'))).toBe(true);
    expect(sh(wt, 'config', '--list')).not.toContain('evil');
  });

  it('restores an included file the config already named, and reports nothing when nothing changed', async () => {
    const { repo, wt } = await worktreeOf();
    const inc = join(tempDir(), 'inc.cfg');
    writeFileSync(inc, '[user]\n\tname = Someone\n');
    sh(repo, 'config', 'include.path', inc);
    const snap = await snapshotRepoConfig(wt);
    expect(await restoreRepoConfig(snap)).toEqual([]);
    writeFileSync(inc, '[core]\n\tfsmonitor = /tmp/evil\n');
    expect(await restoreRepoConfig(snap)).toEqual([inc]);
    expect(readFileSync(inc, 'utf8')).toContain('Someone');
  });

  it('reports a revert as an event and a log line for the step loop', async () => {
    const { wt } = await worktreeOf();
    const snap = await snapshotRepoConfig(wt);
    sh(wt, 'config', 'core.fsmonitor', '/tmp/evil');
    const events: Array<[string, unknown]> = [];
    const store = { event: (_run: string, type: string, payload: unknown) => void events.push([type, payload]) };
    expect(await guardRepoConfig(store, 'r1', 2, snap)).toHaveLength(1);
    expect(events.map(([t]) => t)).toEqual(['git.config_reverted', 'log']);
    expect(await guardRepoConfig(store, 'r1', 2, snap)).toEqual([]);
    expect(events).toHaveLength(2);
  });
});
