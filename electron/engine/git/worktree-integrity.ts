// The run's worktree as Ratchet's own git may touch it: its git dir found from the user's repository (never from the worktree's .git file), and an fs-only check that the agent planted no git dir of its own.
import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { isWithin } from '../fs/within';
import { readWorktreeFileSync, textOf } from '../fs/worktree-file';
import { RatchetError } from '../errors';

/**
 * A run's worktree and the admin dir (`<repository common dir>/worktrees/<name>`) that git keeps for it in the user's
 * repository. Every git command Ratchet runs on the worktree names both (`--git-dir`, `--work-tree`), so what the
 * agent writes into the worktree's `.git` file is never read.
 */
export interface PinnedWorktree {
  worktree: string;
  gitDir: string;
}

/** One thing found in the worktree that would have steered Ratchet's git (outside the sandbox) to a git dir of the agent's choosing. */
export interface WorktreeViolation {
  kind: 'dotgit_changed' | 'dotgit_replaced' | 'nested_git';
  /** Relative to the worktree. */
  path: string;
  /** What was found, as a phrase ("re-pointed at /x/.evil", "a directory"). */
  found: string;
}

/** The error Ratchet's git throws instead of walking a worktree that fails the check (every caller is covered). */
export class WorktreeViolationError extends RatchetError {
  readonly violations: WorktreeViolation[];
  constructor(violations: WorktreeViolation[]) {
    super('sandbox_violation', describeViolations(violations));
    this.violations = violations;
  }
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/** The repository's common git dir, from its own `.git` (a folder, or a file when the repository is itself a linked worktree). */
function commonDirOf(repo: string): string {
  const dotGit = join(repo, '.git');
  const st = lstatSync(dotGit);
  if (st.isDirectory()) return dotGit;
  const own = gitdirLine(readFileSync(dotGit, 'utf8'));
  if (!own) throw new RatchetError('worktree_unregistered', `${dotGit} is not a git directory or a "gitdir:" file.`);
  const ownDir = resolve(repo, own);
  try {
    return resolve(ownDir, readFileSync(join(ownDir, 'commondir'), 'utf8').trim());
  } catch {
    return ownDir;
  }
}

function gitdirLine(text: string): string | null {
  const m = /^gitdir: (.+?)\r?\n?$/.exec(text);
  return m ? m[1]! : null;
}

/**
 * Finds the worktree's admin dir in the USER's repository: the `<common dir>/worktrees/<name>` whose `gitdir` file names
 * `<worktree>/.git`. Inside the sandbox the repository's `.git` is read-only, so that entry cannot be forged; the
 * worktree's own `.git` file is never consulted. Throws `worktree_unregistered` when git has no such entry.
 */
export function pinWorktree(repo: string, worktree: string): PinnedWorktree {
  const common = commonDirOf(repo);
  const want = join(real(worktree), '.git');
  const admin = join(common, 'worktrees');
  for (const name of listOrEmpty(admin)) {
    const named = readOrNull(join(admin, name, 'gitdir'))?.trim();
    if (named && join(real(dirname(resolve(admin, name, named))), '.git') === want) return { worktree, gitDir: join(admin, name) };
  }
  throw new RatchetError(
    'worktree_unregistered',
    `${worktree} is not a worktree of ${repo} (git has no entry for it under ${admin}). Recreate the worktree (\`ratchet resume\` offers it) or start the run again.`,
  );
}

function listOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** pinWorktree, or null when the repository has no entry for the worktree (removed, moved, or never made). */
export function pinnedOrNull(repo: string, worktree: string): PinnedWorktree | null {
  try {
    return pinWorktree(repo, worktree);
  } catch {
    return null;
  }
}

/**
 * Whether a run rebuilt from git (`ratchet recover`) may take `worktree` as its worktree: one of the repository's own
 * worktrees, or a path where nothing is yet (a resume makes the worktree there). Never an existing folder git does not
 * know as a worktree of it — the user's checkout, say, which a resume would otherwise work in or move aside.
 */
export function adoptableWorktree(repo: string, worktree: string): boolean {
  return lstatSafe(worktree) === null || pinnedOrNull(repo, worktree) !== null;
}

/** A run's worktree path that is not a worktree of the repository and holds the repository itself: never moved aside. */
export function holdsRepository(repo: string, worktree: string): boolean {
  return !adoptableWorktree(repo, worktree) && isWithin(real(worktree), real(repo));
}

/**
 * A name git treats as `.git`: any case (case-insensitive file systems), trailing dots or spaces (Windows), the
 * characters HFS+ ignores (macOS), and the short name `git~1`.
 */
export function isDotGitName(name: string): boolean {
  if (name.length < 4 || name.length > 24) return false;
  const n = name
    .replace(/[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
  return n === '.git' || n === 'git~1';
}

/** What the root `.git` is, when it is not the file that names the admin dir. */
function rootDotGitProblem(p: PinnedWorktree): WorktreeViolation | null {
  const file = join(p.worktree, '.git');
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return { kind: 'dotgit_replaced', path: '.git', found: 'removed' };
  }
  if (!st.isFile())
    return {
      kind: 'dotgit_replaced',
      path: '.git',
      found: st.isDirectory() ? 'replaced by a directory' : st.isSymbolicLink() ? 'replaced by a link' : 'replaced by something that is not a file',
    };
  if (st.size > 4096) return { kind: 'dotgit_changed', path: '.git', found: `rewritten (${st.size} bytes)` };
  // Read as every worktree file is: a file swapped in since the lstat (a FIFO) must not hold Ratchet up.
  const text = textOf(readWorktreeFileSync(p.worktree, '.git', { maxBytes: 4096 }));
  const named = text === null ? null : gitdirLine(text);
  if (named === null) return { kind: 'dotgit_changed', path: '.git', found: 'rewritten (no "gitdir:" line)' };
  const target = resolve(p.worktree, named);
  if (target === resolve(p.gitDir) || real(target) === real(p.gitDir)) return null;
  return { kind: 'dotgit_changed', path: '.git', found: `re-pointed at ${target}` };
}

/** The most nested git dirs reported (the walk stops there: one is enough to refuse). */
const MAX_REPORTED = 5;

/**
 * Fs only, no git: the root `.git` is a regular file naming the trusted admin dir, and there is no other `.git` (file,
 * folder or link) anywhere below the worktree. Links are never followed. `skip`: absolute folders not to walk into —
 * those git ignores, which git never walks either (node_modules, build output). Returns what was found (empty: intact).
 */
export function checkWorktreeIntegrity(p: PinnedWorktree, skip: ReadonlySet<string> = new Set()): WorktreeViolation[] {
  const found: WorktreeViolation[] = [];
  const root = rootDotGitProblem(p);
  if (root) found.push(root);
  const stack: string[] = [p.worktree];
  while (stack.length && found.length < MAX_REPORTED) {
    const dir = stack.pop()!;
    if (skip.has(dir)) continue;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // Unreadable (or gone): git cannot read it either.
      continue;
    }
    for (const e of entries) {
      if (isDotGitName(e.name)) {
        if (dir === p.worktree && e.name === '.git') continue;
        const kind = e.isDirectory() ? 'directory' : e.isSymbolicLink() ? 'link' : 'file';
        found.push({ kind: 'nested_git', path: relative(p.worktree, join(dir, e.name)), found: `a nested repository (${kind})` });
        if (found.length >= MAX_REPORTED) break;
      } else if (e.isDirectory()) {
        stack.push(join(dir, e.name));
      }
    }
  }
  return found;
}

/** Puts the root `.git` back as the file naming the admin dir (whatever replaced it is removed, never followed). */
export function restoreDotGit(p: PinnedWorktree): void {
  const file = join(p.worktree, '.git');
  const tmp = join(p.worktree, `.git.ratchet-${randomBytes(4).toString('hex')}`);
  writeFileSync(tmp, `gitdir: ${p.gitDir}\n`, { flag: 'wx' });
  try {
    // rename() replaces a file or a link, not a folder: a folder is removed first (rm never follows links inside it).
    if (lstatSafe(file)?.isDirectory()) rmSync(file, { recursive: true, force: true });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

function lstatSafe(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** One sentence for the run's reason: what the agent's files tried, and that Ratchet ran none of it. */
export function describeViolations(v: readonly WorktreeViolation[]): string {
  const parts = v.map((x) => (x.kind === 'nested_git' ? `${x.found} at ${x.path}` : `the worktree's .git file ${x.found}`));
  const nested = v.filter((x) => x.kind === 'nested_git').map((x) => x.path);
  return (
    `files in the worktree would have steered Ratchet's own git, which runs outside the sandbox, to a git dir of their choosing: ${parts.join('; ')}. ` +
    `Ratchet staged and ran nothing of the attempt${v.some((x) => x.kind !== 'nested_git') ? ' and restored the .git file' : ''}` +
    (nested.length ? `; remove ${nested.join(', ')} from the worktree before retrying` : '')
  );
}
