// After a run succeeds: preview and land its branch on the base branch (fast-forward or a merge commit), or push it and derive the pull-request URL.
// The user's checkout is never put at risk: a merge is computed without touching any working tree, and a checked-out
// base branch is only moved by `git merge --ff-only` there when that checkout is clean.
import { RatchetError } from '../errors';
import { branchTip, git, identityArgs, isAncestor } from './repo-git';
import { mergeConflicts } from './run-refs';

export interface MergeTarget {
  /** The repository's main folder (any worktree of it works for refs). */
  repo: string;
  /** The run's branch. */
  branch: string;
  /** The branch the run started from. */
  base: string;
}

export interface MergePreview {
  base: string;
  branch: string;
  baseTip: string;
  branchTip: string;
  /** Commits the merge would bring onto the base, newest first. */
  commits: Array<{ sha: string; subject: string }>;
  diffstat: string;
  /** The base has not moved since the branch left it: the base can simply move forward. */
  canFastForward: boolean;
  /** Files that would conflict (a merge commit is refused then). */
  conflicts: string[];
  /** The worktree where the base branch is checked out, if any, and whether it has uncommitted changes. */
  checkout: { path: string; dirty: boolean } | null;
  /** Nothing to merge: the base already holds every commit of the branch. */
  upToDate: boolean;
  /** Why landing it is refused now, as a sentence saying what to do; null when it can land. */
  blocked: string | null;
}

export type MergeMode = 'ff-only' | 'no-ff';

/** Where the base branch is checked out (`git worktree list --porcelain`), or null. */
async function checkoutOf(repo: string, base: string): Promise<string | null> {
  const out = await git(repo).raw(['worktree', 'list', '--porcelain']);
  let path: string | null = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${base}`) return path;
  }
  return null;
}

async function trackedChanges(dir: string): Promise<boolean> {
  // Untracked files are not at risk: git refuses a merge that would overwrite one.
  return (await git(dir).raw(['status', '--porcelain', '--untracked-files=no'])).trim() !== '';
}

export async function previewMerge(t: MergeTarget): Promise<MergePreview> {
  const baseTip = await branchTip(t.repo, t.base);
  if (!baseTip)
    throw new RatchetError(
      'no_branch',
      `The base branch ${t.base} no longer exists in ${t.repo}; create it again or merge the run's branch ${t.branch} by hand.`,
    );
  const tip = await branchTip(t.repo, t.branch);
  if (!tip) throw new RatchetError('no_branch', `The run's branch ${t.branch} no longer exists in ${t.repo}.`);
  const g = git(t.repo);
  const log = await g.raw(['log', '--no-color', '--format=%H%x09%s', `${baseTip}..${tip}`]);
  const commits = log
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ sha: l.slice(0, 40), subject: l.slice(41) }));
  const diffstat = commits.length ? (await g.raw(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--stat', `${baseTip}...${tip}`])).trimEnd() : '';
  const canFastForward = await isAncestor(t.repo, baseTip, tip);
  const conflicts = canFastForward ? [] : await mergeConflicts(t.repo, baseTip, tip);
  const path = await checkoutOf(t.repo, t.base);
  const checkout = path ? { path, dirty: await trackedChanges(path) } : null;
  const upToDate = commits.length === 0;
  const blocked = upToDate
    ? `${t.base} already has every commit of ${t.branch}: nothing to merge.`
    : conflicts.length
      ? `${t.base} has moved since the run started, and merging would conflict in ${conflicts.join(', ')}. Merge ${t.base} into ${t.branch} in the run's worktree and resolve the conflicts there, or merge by hand.`
      : checkout?.dirty
        ? `${t.base} is checked out in ${checkout.path} with uncommitted changes; commit or stash them there first, so the merge cannot touch your work.`
        : null;
  return { base: t.base, branch: t.branch, baseTip, branchTip: tip, commits, diffstat, canFastForward, conflicts, checkout, upToDate, blocked };
}

/**
 * Lands the run's branch on its base. `ff-only` moves the base to the branch's tip (refused when the base moved);
 * `no-ff` records a merge commit, built with `git merge-tree` and `commit-tree` so no working tree is touched on the way.
 * `expectBaseTip` (from the preview the user saw) refuses when the base moved since.
 */
export async function landRun(t: MergeTarget, mode: MergeMode, expectBaseTip?: string): Promise<{ commit: string; mode: MergeMode; preview: MergePreview }> {
  const p = await previewMerge(t);
  if (expectBaseTip && expectBaseTip !== p.baseTip) {
    throw new RatchetError('base_moved', `${t.base} moved since the preview (now at ${p.baseTip.slice(0, 8)}); look at the preview again before merging.`);
  }
  if (p.blocked) throw new RatchetError(p.upToDate ? 'nothing_to_merge' : p.conflicts.length ? 'merge_conflict' : 'dirty_tree', p.blocked);
  if (mode === 'ff-only' && !p.canFastForward) {
    throw new RatchetError('not_fast_forward', `${t.base} has moved since the run started, so it cannot fast-forward; merge with a merge commit instead.`);
  }
  const g = git(t.repo);
  let target = p.branchTip;
  if (mode === 'no-ff') {
    const tree = (await g.raw(['merge-tree', '--write-tree', p.baseTip, p.branchTip])).split('\n')[0]?.trim() ?? '';
    if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new RatchetError('merge_conflict', `git could not merge ${t.branch} into ${t.base} cleanly; merge by hand.`);
    const message = `Merge branch '${t.branch}' into ${t.base}`;
    target = (await g.raw([...(await identityArgs(t.repo)), 'commit-tree', tree, '-p', p.baseTip, '-p', p.branchTip, '-m', message])).trim();
  }
  if (p.checkout) {
    // The user's checkout moves only forward, only when clean; git itself refuses to overwrite anything. What it
    // checks out is the run's files, written as they were committed (without filters): no filter the run's
    // .gitattributes selects (git-lfs with the run's .lfsconfig) runs.
    try {
      await git(p.checkout.path, [], {}, { filtersOff: true }).raw(['merge', '--ff-only', '-q', target]);
    } catch (err) {
      throw new RatchetError(
        'dirty_tree',
        `git refused to update ${t.base} in ${p.checkout.path}: ${(err as Error).message.trim().split('\n')[0]}. Nothing was changed; commit or stash your work there and try again.`,
      );
    }
  } else {
    // Compare-and-swap: refused if anything moved the base in between.
    await g.raw(['update-ref', '-m', `ratchet: merge ${t.branch}`, `refs/heads/${t.base}`, target, p.baseTip]);
  }
  return { commit: target, mode, preview: p };
}

/** The remote the branch should go to: the base branch's upstream remote, else `origin`, else the only remote; null when there is none. */
export async function pushRemote(repo: string, base: string | null): Promise<{ name: string; url: string } | null> {
  const g = git(repo);
  const names = (await g.raw(['remote']))
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length) return null;
  const upstream = base ? (await g.raw(['config', '--get', `branch.${base}.remote`]).catch(() => '')).trim() : '';
  const name = names.includes(upstream) ? upstream : names.includes('origin') ? 'origin' : names.length === 1 ? names[0]! : null;
  if (!name) return null;
  const url = (await g.raw(['remote', 'get-url', name])).trim();
  return { name, url };
}

/**
 * A remote URL's host (lower case) and repository path without `.git`, in every form git takes for a network remote:
 * https (with or without a user), ssh://, git://, git+ssh:// and scp-like `user@host:path`; null for a local path or a
 * path with no owner.
 */
export function remoteHostPath(remoteUrl: string): { host: string; path: string } | null {
  const m = /^(?:(?:https?|ssh|git|git\+ssh|ssh\+git):\/\/(?:[^@/]+@)?|[^@/]+@)([^/:]+)(?::\d+)?[:/](.+?)(?:\.git)?\/?$/i.exec(remoteUrl.trim());
  if (!m) return null;
  const path = m[2]!.replace(/^\/+/, '');
  return path.includes('/') ? { host: m[1]!.toLowerCase(), path } : null;
}

/**
 * The web page that opens a pull (merge) request for `branch` into `base`, from a remote URL
 * (https, ssh or scp-like) on a GitHub, GitLab or Bitbucket host; null for other remotes (a path, an unknown host).
 */
export function pullRequestUrl(remoteUrl: string, branch: string, base: string | null): string | null {
  const hp = remoteHostPath(remoteUrl);
  if (!hp) return null;
  const { host, path } = hp;
  const web = `https://${host}/${path}`;
  const b = encodeURIComponent(branch);
  if (host.includes('github')) return base ? `${web}/compare/${encodeURIComponent(base)}...${b}?expand=1` : `${web}/pull/new/${b}`;
  if (host.includes('gitlab')) {
    return `${web}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${b}${base ? `&merge_request%5Btarget_branch%5D=${encodeURIComponent(base)}` : ''}`;
  }
  if (host.includes('bitbucket')) return `${web}/pull-requests/new?source=${b}${base ? `&dest=${encodeURIComponent(base)}` : ''}`;
  return null;
}

/** Pushes the run's branch to the remote (never force) and answers where to open the pull request, when the host is known. */
export async function pushRun(
  repo: string,
  branch: string,
  base: string | null,
): Promise<{ remote: string; remoteUrl: string; pullRequestUrl: string | null }> {
  const remote = await pushRemote(repo, base);
  if (!remote) throw new RatchetError('no_remote', `${repo} has no remote to push to. Add one (git remote add origin <url>) and try again.`);
  try {
    // No prompt can be answered here: credentials must come from the user's credential helper or SSH agent.
    await git(repo, [], { GIT_TERMINAL_PROMPT: '0', ...(process.env.SSH_AUTH_SOCK ? { SSH_AUTH_SOCK: process.env.SSH_AUTH_SOCK } : {}) }).raw([
      'push',
      '--porcelain',
      remote.name,
      `refs/heads/${branch}:refs/heads/${branch}`,
    ]);
  } catch (err) {
    const why = (err as Error).message
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('To ') && !l.startsWith('hint:'))
      .slice(0, 2)
      .join(' ');
    throw new RatchetError(
      'push_failed',
      `Pushing ${branch} to ${remote.name} failed: ${why || 'git gave no reason'}. Check that you can push there from a terminal (git push ${remote.name} ${branch}).`,
    );
  }
  return { remote: remote.name, remoteUrl: remote.url, pullRequestUrl: pullRequestUrl(remote.url, branch, base) };
}
