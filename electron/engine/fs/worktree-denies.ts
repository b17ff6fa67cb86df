// The sandbox's built-in write protection, computed for a run's worktree: the library computes it from process.cwd() (Ratchet's launch folder), never from the folder its commands work in.
import { lstatSync, rmSync } from 'node:fs';
import path from 'node:path';
// Deep import: the library's own lists, so this follows them when they grow (its index does not export them).
import { DANGEROUS_FILES, getDangerousDirectories } from '@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js';

/**
 * Paths under the worktree no sandboxed command may write, relative to it: the files and folders the library denies in
 * its working directory (shell start-up files, .gitconfig, .gitmodules, .ripgreprc, .mcp.json, .vscode, .idea,
 * .claude/commands, .claude/agents), and Ratchet's one addition: `.lfsconfig`, which git-lfs reads from the work tree
 * when Ratchet's own git (outside the sandbox) checks files out — its `lfs.url` would send that git to a host of the
 * agent's choosing. One the worktree has is mounted read-only; an absent one is not held by a placeholder (the
 * project's tools would meet it: see `absentDenies`), what a command makes there is removed when it ends.
 */
export const WORKTREE_DENIED_PATHS: readonly string[] = [...DANGEROUS_FILES, ...getDangerousDirectories(), '.lfsconfig'];

/**
 * The entry of WORKTREE_DENIED_PATHS that `relative` (a path relative to the worktree) is or lies in, or null. Compared
 * case-insensitively: macOS's and Windows' file systems open `.LFSConfig` as `.lfsconfig`. The agent's edit tool
 * refuses these as the sandbox does, so what no command may write, no tool writes either.
 */
export function worktreeDeniedPathOf(relative: string): string | null {
  const segments = relative
    .split(/[\\/]/)
    .filter((s) => s !== '' && s !== '.')
    .map((s) => s.toLowerCase());
  for (const denied of WORKTREE_DENIED_PATHS) {
    const parts = denied.toLowerCase().split('/');
    if (parts.length <= segments.length && parts.every((p, i) => segments[i] === p)) return denied;
  }
  return null;
}

/**
 * What the library's `linuxGetCwdMandatoryDenyPaths` (and macOS's mandatory entries) would deny if the worktree were
 * its working directory, as absolute paths for the run policy's `denyWrite`. Plus the library's `.git` rule for a
 * worktree, whose `.git` is a file (`gitdir: <repo>/.git/worktrees/<name>`): the file itself is denied, so a command can
 * neither re-point it nor replace it with a git dir of its own (nothing can be made under a file, so `.git/hooks` and
 * `.git/config` need no entry). Pure: a Ratchet worktree's `.git` is a file by construction.
 */
export function worktreeMandatoryDenies(worktree: string): string[] {
  const root = path.resolve(worktree);
  return [...WORKTREE_DENIED_PATHS.map((p) => path.join(root, p)), path.join(root, '.git')];
}

/** Whether `p` (below `root`) or a folder between them is a link: the library then guards the link itself. */
function linkOnTheWay(root: string, p: string): boolean {
  for (let at = p; at !== root && at.startsWith(`${root}${path.sep}`); at = path.dirname(at)) {
    try {
      if (lstatSync(at).isSymbolicLink()) return true;
    } catch {
      // Absent: nothing above it is looked through yet.
    }
  }
  return false;
}

/**
 * The worktree's protected paths absent now (none of them a link's, nor below one). Sandboxed commands run without
 * a deny for them: the library would hold each with a placeholder (/dev/null or an empty folder) that bubblewrap
 * makes in the worktree, which every tool that walks the tree meets (`prettier --check .` fails on it with EACCES),
 * and no mount denies making a name without one. Instead, what a command makes there is removed when it ends
 * (`sweepDenied`), before Ratchet's git looks at the tree (which never stages these paths either).
 */
export function absentDenies(worktree: string): string[] {
  const root = path.resolve(worktree);
  return worktreeMandatoryDenies(root).filter((p) => {
    try {
      lstatSync(p);
      return false;
    } catch {
      return !linkOnTheWay(root, p);
    }
  });
}

/**
 * Removes whatever is now at `absent` (paths `absentDenies` found absent before a command started): what a sandboxed
 * command made where the sandbox protects. A link is removed, never followed. The paths removed.
 */
export function sweepDenied(absent: readonly string[]): string[] {
  const removed: string[] = [];
  for (const p of absent) {
    try {
      lstatSync(p);
    } catch {
      continue;
    }
    rmSync(p, { recursive: true, force: true });
    removed.push(p);
  }
  return removed;
}
