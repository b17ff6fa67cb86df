// A worker's git with the team's remotes: its clone of each remote (the per-worker clone cache), fetching a run's
// branch and refs before a step, pushing them after it. The remote is the truth of what a team run has committed: a
// step is pushed with a lease on the branch as it was fetched, so a worker that lost the run (taken over while it was
// silent) cannot land a second copy of a step.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RatchetError } from '../errors';
import { git } from '../git/repo-git';
import { serialized } from '../git/repo-lock';

/** Git for the remote: the user's ssh agent too (a socket path, no secret in it), which the engine's own git has no use for. */
function remoteGit(dir: string) {
  const sock = process.env.SSH_AUTH_SOCK;
  return git(dir, [], sock ? { SSH_AUTH_SOCK: sock } : {});
}

/** Each clone's git commands one after the other (worktrees added, fetches, pushes of several runs of one remote). */
export { serialized };

/** Where this worker keeps its clone of `remote`: one per remote, under the worker's home. */
export function clonePath(home: string, remote: string): string {
  const name = (remote.replace(/\/+$/, '').split(/[/:]/).pop() ?? 'repo').replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]/g, '_') || 'repo';
  return join(home, 'team', 'clones', `${name}-${createHash('sha256').update(remote).digest('hex').slice(0, 12)}`);
}

/** The worker's clone of the remote, made on first use (later uses fetch). */
export async function ensureClone(home: string, remote: string): Promise<string> {
  const dir = clonePath(home, remote);
  return serialized(dir, async () => {
    if (existsSync(join(dir, '.git'))) return dir;
    mkdirSync(dirname(dir), { recursive: true });
    try {
      await remoteGit(dirname(dir)).raw(['clone', '--quiet', '--no-checkout', '--', remote, dir]);
    } catch (e) {
      throw new RatchetError(
        'team_git',
        `This worker cannot clone ${remote}: ${(e as Error).message.trim()}. Give it read access (its own git credentials) to the remote.`,
        {
          cause: e,
        },
      );
    }
    return dir;
  });
}

/** The remote's branches, and this run's branch and refs (refs/ratchet/<run>/…) as the remote has them now. */
export async function fetchRun(clone: string, runId: string): Promise<void> {
  await serialized(clone, () =>
    remoteGit(clone).raw(['fetch', '--quiet', '--prune', 'origin', '+refs/heads/*:refs/remotes/origin/*', `+refs/ratchet/${runId}/*:refs/ratchet/${runId}/*`]),
  );
}

/** The commit a ref names in the clone, or null. */
export async function refSha(clone: string, ref: string): Promise<string | null> {
  const out = (await git(clone).raw(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim();
  return out || null;
}

export async function hasCommit(clone: string, sha: string): Promise<boolean> {
  return (await git(clone).run(['cat-file', '-e', `${sha}^{commit}`])).code === 0;
}

/**
 * Pushes the run's branch (only if the remote's is still `expected`: null, that it has none) and its refs, and returns
 * the commit pushed (the next push's lease). Throws `team_lost_run` when the remote moved: another worker holds the run now.
 */
export async function pushRun(clone: string, runId: string, branch: string, expected: string | null): Promise<string | null> {
  return serialized(clone, async () => {
    const pushed = await refSha(clone, `refs/heads/${branch}`);
    const r = await remoteGit(clone).run([
      'push',
      '--quiet',
      '--porcelain',
      // The branch and the run's refs land together or not at all: a worker dying mid-push leaves no half.
      '--atomic',
      `--force-with-lease=refs/heads/${branch}:${expected ?? ''}`,
      'origin',
      `refs/heads/${branch}:refs/heads/${branch}`,
      `+refs/ratchet/${runId}/*:refs/ratchet/${runId}/*`,
    ]);
    if (r.code === 0) {
      // The remote-tracking ref follows, so the next lease is on what was just pushed.
      await git(clone).raw(['update-ref', `refs/remotes/origin/${branch}`, `refs/heads/${branch}`]);
      return pushed;
    }
    if (/stale info|rejected|fetch first/.test(r.stdout + r.stderr))
      throw new RatchetError('team_lost_run', `The remote's ${branch} moved while this worker ran the step: another worker holds run ${runId} now.`);
    throw new RatchetError(
      'team_git',
      `This worker cannot push ${branch} to the remote: ${(r.stderr || r.stdout).trim()}. Give it write access (its own git credentials).`,
    );
  });
}

/**
 * A remote's URL without the credentials it may carry (`https://user:token@host/x.git` → `https://host/x.git`, what a CI
 * checkout leaves): what the team database stores and the workers clone, each with its own git credentials. An ssh URL
 * keeps its user name (`ssh://git@host/x`, `git@host:x`: the account, not a secret) and loses a password.
 */
export function publicRemote(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)(.*)$/i.exec(url);
  if (!m) return url;
  const [, scheme, userinfo, rest] = m as unknown as [string, string, string, string];
  if (/^(ssh|git\+ssh|ssh\+git):/i.test(scheme)) {
    const user = userinfo.slice(0, -1).split(':')[0] ?? '';
    return `${scheme}${user ? `${user}@` : ''}${rest}`;
  }
  return `${scheme}${rest}`;
}

/** The remote (URL, without credentials: publicRemote) a local clone's runs go through: `origin`, or its only remote. */
export async function teamRemoteOf(repoRoot: string): Promise<{ name: string; url: string }> {
  const names = (await git(repoRoot).raw(['remote'])).split('\n').filter(Boolean);
  const name = names.includes('origin') ? 'origin' : names.length === 1 ? names[0] : null;
  if (!name)
    throw new RatchetError(
      'bad_arguments',
      names.length
        ? `${repoRoot} has several remotes and none is called origin: the workers would not know which to clone. Name the team's remote origin.`
        : `${repoRoot} has no remote: team workers clone the repository from its remote. Add one (git remote add origin <url>) and push your branch.`,
    );
  return { name: name as string, url: publicRemote((await git(repoRoot).raw(['remote', 'get-url', name as string])).trim()) };
}

/** The commit `branch` names on `remote` now (a scheduled team run starts from it). */
export async function remoteHead(remote: string, branch: string | null): Promise<string> {
  const out = branch
    ? await remoteGit(process.cwd())
        .raw(['ls-remote', '--', remote, `refs/heads/${branch}`])
        .catch((e: Error) => e.message)
    : '';
  const sha = /^([0-9a-f]{40,64})\s/.exec(out)?.[1];
  if (!sha)
    throw new RatchetError(
      'team_git',
      `The remote ${remote} has no branch ${branch ?? '(none)'} to start the scheduled run from: ${out.trim() || 'no answer'}.`,
    );
  return sha;
}

/** Throws unless the remote has `commit` (on any branch): workers start from the remote, not from this machine. */
export async function assertOnRemote(repoRoot: string, remoteName: string, commit: string, branch: string | null): Promise<void> {
  const contains = async () => (await git(repoRoot).run(['branch', '-r', '--contains', commit])).stdout.trim();
  // Fetched only when this clone does not know the remote has it yet (a fetch is a round trip to the remote).
  let on = await contains();
  if (!on) {
    await remoteGit(repoRoot)
      .raw(['fetch', '--quiet', remoteName])
      .catch(() => undefined);
    on = await contains();
  }
  if (!on)
    throw new RatchetError(
      'bad_arguments',
      `The commit the run would start from (${commit.slice(0, 10)}) is not on the remote: team workers clone from it. Push it first (git push ${remoteName} ${branch ?? 'HEAD'}), then run again.`,
    );
}
