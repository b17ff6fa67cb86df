// Git operations of a run: repo checks, the run's worktree, attempt snapshots, step and rescue commits.
import { existsSync, lstatSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { RatchetError } from '../errors';
import { WORKTREE_DENIED_PATHS } from '../fs/worktree-denies';
import {
  checkWorktreeIntegrity,
  describeViolations,
  pinWorktree,
  restoreDotGit,
  WorktreeViolationError,
  type PinnedWorktree,
  type WorktreeViolation,
} from './worktree-integrity';
import { git, type GitPlace } from './git-command';
import { serialized } from './repo-lock';
import { runExcludes } from './run-excludes';

export type { PinnedWorktree } from './worktree-integrity';
// The command layer is git-command.ts; its names stay importable from here, where the engine has always found them.
export { git, gitEnv, gitLog, HARDENED_GIT_CONFIG, unsafeGitArguments, type Git, type GitPlace, type GitResult } from './git-command';

export interface RepoInfo {
  root: string;
  name: string;
  headCommit: string;
  branch: string | null;
}

const ENGINE_IDENTITY = { name: 'Ratchet', email: 'ratchet@localhost' };

/** Checks that `path` is a usable repository: a folder, a git work tree (not bare), with at least one commit. */
export async function inspectRepo(path: string): Promise<RepoInfo> {
  const abs = resolve(path);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    throw new RatchetError('not_a_directory', `${abs} is not a folder. Give the path of a git repository.`);
  }
  const g = git(abs);
  let inside: string;
  try {
    inside = (await g.raw(['rev-parse', '--is-inside-work-tree'])).trim();
  } catch {
    let bare = '';
    try {
      bare = (await g.raw(['rev-parse', '--is-bare-repository'])).trim();
    } catch {
      /* not a repository at all */
    }
    if (bare === 'true') {
      throw new RatchetError(
        'bare_repo',
        `${abs} is a bare repository. Ratchet needs a repository with a working tree: clone it first (git clone ${abs} <folder>).`,
      );
    }
    throw new RatchetError('not_git_repo', `${abs} is not a git repository. Run \`git init\` and commit your code first, or choose another folder.`);
  }
  if (inside !== 'true') {
    throw new RatchetError(
      'bare_repo',
      `${abs} is not inside a git working tree (a bare repository or a .git folder). Choose the repository's working folder.`,
    );
  }
  const root = (await g.raw(['rev-parse', '--show-toplevel'])).trim();
  let headCommit: string;
  try {
    headCommit = (await g.raw(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  } catch {
    throw new RatchetError('no_commits', `${root} has no commits yet. Commit your code once (git add -A && git commit -m "initial"), then run again.`);
  }
  return { root, name: basename(root), headCommit, branch: await currentBranch(root) };
}

export async function createWorktree(repoRoot: string, worktree: string, branch: string, baseCommit: string): Promise<void> {
  // Apart from the repository's other changes made here (a team worker's fetches into its clone: repo-lock.ts).
  await serialized(repoRoot, async () => {
    // A worktree folder removed by hand (or a half-made one) must not block the path.
    await git(repoRoot).raw(['worktree', 'prune']);
    await git(repoRoot).raw(['worktree', 'add', '-b', branch, worktree, baseCommit]);
  });
}

export async function branchExists(repoRoot: string, branch: string): Promise<boolean> {
  try {
    // --quiet gives no stderr on a miss, and raw() then resolves with empty output: check the output itself.
    return (await git(repoRoot).raw(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).trim() !== '';
  } catch {
    return false;
  }
}

export async function headCommit(place: GitPlace): Promise<string> {
  return (await git(place).raw(['rev-parse', 'HEAD'])).trim();
}

export async function currentBranch(place: GitPlace): Promise<string | null> {
  try {
    return (await git(place).raw(['symbolic-ref', '--short', '-q', 'HEAD'])).trim() || null;
  } catch {
    return null;
  }
}

/**
 * Directories git ignores in the worktree (it never walks them, so a nested repository there is never seen by
 * Ratchet's git either). Lets the integrity walk skip node_modules and the like. Nothing in the worktree can make this
 * command run anything: it is pinned, hardened, and reads no file's contents; a failure means a full walk.
 */
async function ignoredDirs(p: PinnedWorktree): Promise<Set<string>> {
  const out = await git(p)
    .raw(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'])
    .catch(() => '');
  const dirs = new Set<string>();
  for (const entry of out.split('\0')) if (entry.endsWith('/')) dirs.add(resolve(p.worktree, entry.slice(0, -1)));
  return dirs;
}

/** What the integrity check finds in the worktree (empty: intact). Fs only, but for one listing of the ignored folders. */
export async function worktreeViolations(p: PinnedWorktree): Promise<WorktreeViolation[]> {
  return checkWorktreeIntegrity(p, await ignoredDirs(p));
}

/**
 * The check after the agent, a gate or a validator ran: what would have steered Ratchet's git (empty: the worktree is
 * intact). The `.git` file is put back whenever it was touched.
 */
export async function checkWorktree(p: PinnedWorktree): Promise<WorktreeViolation[]> {
  const found = await worktreeViolations(p);
  if (found.some((v) => v.kind !== 'nested_git')) restoreDotGit(p);
  return found;
}

/**
 * The guard in front of every git command of Ratchet's that walks the work tree: refuses (WorktreeViolationError,
 * class sandbox_violation) a worktree whose `.git` file was rewritten or that holds a nested git dir, putting the
 * `.git` file back. Nothing is staged or run then.
 */
export async function assertWorktreeIntact(p: PinnedWorktree): Promise<void> {
  const found = await checkWorktree(p);
  if (found.length) throw new WorktreeViolationError(found);
}

/**
 * Pathspecs that keep the paths the sandbox protects (`.bashrc`, `.mcp.json`, `.vscode`…) out of what Ratchet
 * stages: one the worktree has is read-only to sandboxed commands, and what a command makes at an absent one is
 * removed when the run's last running command ends (see absentDenies) — later than a snapshot taken while another
 * command of the run still runs. So whatever is there is the project's as it was, or a command's to be removed:
 * never the agent's work.
 */
export function placeholderExcludes(p: PinnedWorktree): string[] {
  const out: string[] = [];
  // Those the run's exclude file ignores already must not be named: `git add` refuses a pathspec naming an ignored path.
  const ignored = new Set(runExcludes(p.worktree));
  for (const rel of WORKTREE_DENIED_PATHS) {
    if (ignored.has(rel)) continue;
    try {
      lstatSync(join(p.worktree, rel));
      out.push(`:(top,literal,exclude)${rel}`);
    } catch {
      /* absent: nothing to keep out */
    }
  }
  return out.length ? ['--', '.', ...out] : [];
}

/**
 * How a caller that walks the work tree is covered: by the check inside (the default), or `checked` when it has just
 * run checkWorktree itself and no sandboxed process has run since (the step runner, once per attempt, not twice).
 */
export interface WalkOptions {
  checked?: boolean;
}

/** Stages everything (the worktree is the engine's own) and returns the tree of the working directory. */
export async function snapshotTree(p: PinnedWorktree, opts: WalkOptions = {}): Promise<string> {
  if (!opts.checked) await assertWorktreeIntact(p);
  const g = git(p);
  await g.raw(['add', '-A', ...placeholderExcludes(p)]);
  return (await g.raw(['write-tree'])).trim();
}

export async function treeOf(place: GitPlace, rev: string): Promise<string> {
  return (await git(place).raw(['rev-parse', `${rev}^{tree}`])).trim();
}

/** The paths a tree adds or modifies since another (relative, `/`-separated; a rename counts as the new path added). */
export async function changedPaths(place: GitPlace, from: string, to: string): Promise<string[]> {
  const out = await git(place).raw(['diff', '--name-only', '-z', '--no-renames', '--diff-filter=AM', '--no-ext-diff', '--no-textconv', from, to]);
  return out.split('\0').filter(Boolean);
}

/** Keeps an attempt's tree reachable under a hidden ref, so any attempt can be diffed or restored later. */
export async function saveAttemptRef(place: GitPlace, ref: string, tree: string, parent: string, message: string): Promise<string> {
  const g = git(place, [`user.name=${ENGINE_IDENTITY.name}`, `user.email=${ENGINE_IDENTITY.email}`]);
  const sha = (await g.raw(['commit-tree', tree, '-p', parent, '-m', message])).trim();
  await g.raw(['update-ref', ref, sha]);
  return sha;
}

/** The diff between two trees: no external diff program, no textconv (a driver's command never runs for Ratchet's diffs). */
export async function diffTrees(place: GitPlace, from: string, to: string): Promise<string> {
  return git(place).raw(['diff', '--no-color', '--no-ext-diff', '--no-textconv', from, to]);
}

/** `-c user.name/user.email` for whichever the user has not configured (the engine's identity fills in). */
export async function identityArgs(place: GitPlace): Promise<string[]> {
  // One lookup for both keys (exit 1 with no output when neither is set).
  let set = '';
  try {
    set = await git(place).raw(['config', '--get-regexp', '^user\\.(name|email)$']);
  } catch {
    set = '';
  }
  const has = (key: string) => set.split('\n').some((l) => l.startsWith(`${key} `) && l.slice(key.length + 1).trim() !== '');
  const args: string[] = [];
  if (!has('user.name')) args.push('-c', `user.name=${ENGINE_IDENTITY.name}`);
  if (!has('user.email')) args.push('-c', `user.email=${ENGINE_IDENTITY.email}`);
  return args;
}

/** Commits everything in the worktree with `message` (empty commits allowed, so every step leaves its commit). */
export async function commitAll(p: PinnedWorktree, message: string, opts: WalkOptions = {}): Promise<string> {
  if (!opts.checked) await assertWorktreeIntact(p);
  const g = git(p);
  // Staging and the identity lookup are independent (the lookup only reads config): run them side by side.
  const [, identity] = await Promise.all([g.raw(['add', '-A', ...placeholderExcludes(p)]), identityArgs(p)]);
  await g.raw([...identity, 'commit', '--allow-empty', '--no-verify', '-q', '-m', message]);
  return headCommit(p);
}

/**
 * Commits exactly `tree` (the attempt's snapshot, taken after the agent and before the gates) on top of HEAD, so
 * whatever gates or validators wrote afterwards is not in the step's commit. Empty commits allowed, as commitAll.
 * It reads no file of the work tree (the tree is already in the object store), so no walk check is needed here.
 */
export async function commitTree(p: PinnedWorktree, tree: string, message: string): Promise<string> {
  const g = git(p);
  const [head, identity] = await Promise.all([headCommit(p), identityArgs(p)]);
  const sha = (await g.raw([...identity, 'commit-tree', tree, '-p', head, '-m', message])).trim();
  // Only if HEAD is still where the commit was made from; the branch moves, and the reflog says why.
  // The index already holds this tree (snapshotTree staged it; nothing in the sandbox can write the index).
  await g.raw(['update-ref', '-m', `commit: ${message.split('\n')[0]}`, 'HEAD', sha, head]);
  return sha;
}

export async function isDirty(p: PinnedWorktree, opts: WalkOptions = {}): Promise<boolean> {
  if (!opts.checked) await assertWorktreeIntact(p);
  const status = await git(p).raw(['status', '--porcelain', '--untracked-files=all', ...placeholderExcludes(p)]);
  return status.trim().length > 0;
}

/**
 * The rescue commit of a failed step's unfinished work (null: nothing to keep). Refused, with the reason, when the
 * worktree fails the check: what would steer Ratchet's git is never committed, not even as a rescue.
 */
export async function rescueCommit(repo: string, worktree: string, message: string): Promise<{ sha: string } | { refused: string } | null> {
  const wt = pinWorktree(repo, worktree);
  const found = await checkWorktree(wt);
  if (found.length) return { refused: describeViolations(found) };
  if (!(await isDirty(wt, { checked: true }))) return null;
  return { sha: await commitAll(wt, message, { checked: true }) };
}

export async function resetHard(p: PinnedWorktree, commit: string): Promise<void> {
  const g = git(p);
  await g.raw(['reset', '--hard', '-q', commit]);
  await g.raw(['clean', '-fdq']);
}

/** Puts a tree's files in the index and the worktree (files it lacks removed), leaving HEAD where it is. */
export async function restoreTree(p: PinnedWorktree, tree: string): Promise<void> {
  await git(p).raw(['read-tree', '-u', '--reset', tree]);
}

/** Ends a rebase, merge or cherry-pick left half-done in the worktree, so the next attempt starts from a sane tree. Returns what it aborted. */
export async function abortInProgress(p: PinnedWorktree): Promise<string[]> {
  const g = git(p);
  const aborted: string[] = [];
  const tries: Array<[string, string[]]> = [
    ['rebase-merge', ['rebase', '--abort']],
    ['rebase-apply', ['rebase', '--abort']],
    ['MERGE_HEAD', ['merge', '--abort']],
    ['CHERRY_PICK_HEAD', ['cherry-pick', '--abort']],
  ];
  for (const [marker, args] of tries) {
    if (existsSync(resolve(p.gitDir, marker))) {
      await g.raw(args).catch(() => undefined);
      aborted.push(args[0] as string);
    }
  }
  return aborted;
}

/** The commit a local branch points at, or null when it does not exist. */
export async function branchTip(repo: string, branch: string): Promise<string | null> {
  try {
    return (await git(repo).raw(['rev-parse', '--verify', '-q', `refs/heads/${branch}`])).trim() || null;
  } catch {
    return null;
  }
}

/** Is `ancestor` already in `rev`'s history? */
export async function isAncestor(place: GitPlace, ancestor: string, rev: string): Promise<boolean> {
  try {
    return (await git(place).raw(['merge-base', ancestor, rev])).trim() === ancestor;
  } catch {
    return false;
  }
}

/** Files left unmerged (in conflict) in the worktree's index. */
export async function conflictedFiles(p: PinnedWorktree): Promise<string[]> {
  const out = await git(p)
    .raw(['diff', '--name-only', '--no-ext-diff', '--diff-filter=U'])
    .catch(() => '');
  return [
    ...new Set(
      out
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
}

function rebaseInProgress(p: PinnedWorktree): boolean {
  return existsSync(resolve(p.gitDir, 'rebase-merge')) || existsSync(resolve(p.gitDir, 'rebase-apply'));
}

/**
 * The one rebase a git conflict gets: replays the worktree's branch onto `onto`, keeping uncommitted work
 * (autostash). When it conflicts, the rebase is aborted, so the branch and the work are exactly as before, and the
 * conflicting files are returned. Nothing committed is lost either way: the old commits stay in the reflog.
 */
export async function rebaseOnto(p: PinnedWorktree, onto: string): Promise<{ ok: true; head: string } | { ok: false; files: string[]; message: string }> {
  await assertWorktreeIntact(p);
  const g = git(p);
  let message = '';
  try {
    await g.raw([...(await identityArgs(p)), 'rebase', '--autostash', '-q', onto]);
  } catch (err) {
    message = (err as Error).message.split('\n').find((l) => l.trim()) ?? 'the rebase failed';
  }
  if (!message && !rebaseInProgress(p)) return { ok: true, head: await headCommit(p) };
  const files = await conflictedFiles(p);
  await g.raw(['rebase', '--abort']).catch(() => undefined);
  return { ok: false, files, message: message || 'the rebase stopped on a conflict' };
}
