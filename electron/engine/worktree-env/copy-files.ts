// The workflow's `copy:` — files git does not carry (.env, local config) copied from the user's checkout into the run's worktree when it is made. Copies, never links; never written back.
import { cpSync, globSync, lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeLandsWithin } from '../fs/within';

export interface CopyResult {
  /** Relative paths copied (a folder ends in `/`). */
  copied: string[];
  /** Matches left alone, and why (already in the worktree: git carries it). */
  skipped: Array<{ path: string; why: string }>;
  /** Patterns refused (absolute, or reaching outside the checkout with `..`). */
  refused: string[];
  /** Matches not copied because a folder on the way in the worktree leads out of it (a link the repository commits), and why. */
  outside: Array<{ path: string; why: string }>;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Absolute patterns and `..` would reach outside the checkout. */
function refusedPattern(glob: string): boolean {
  return path.isAbsolute(glob) || glob.split(/[\\/]/).includes('..');
}

/**
 * Copies what `globs` match in `checkout` to the same place in `worktree`, skipping anything the worktree already has
 * (a tracked file is the commit's, not the checkout's). Links are followed (their content is copied), so nothing in the
 * worktree points back into the checkout. A destination whose folder in the worktree leads out of it is not written. `.git` is never matched; `node_modules` only by a pattern that names it.
 */
export function copyFromCheckout(checkout: string, worktree: string, globs: readonly string[]): CopyResult {
  const result: CopyResult = { copied: [], skipped: [], refused: [], outside: [] };
  const matches = new Set<string>();
  for (const glob of globs) {
    if (refusedPattern(glob)) {
      result.refused.push(glob);
      continue;
    }
    const namesModules = glob.includes('node_modules');
    const found = globSync(glob, {
      cwd: checkout,
      exclude: (p: string) => {
        const base = path.basename(p);
        return base === '.git' || (!namesModules && base === 'node_modules');
      },
    });
    for (const f of found) matches.add(f.split(path.sep).join('/'));
  }
  // A folder matched with files inside it: the folder's copy brings them.
  const sorted = [...matches].sort();
  const chosen = sorted.filter((m) => !sorted.some((o) => o !== m && m.startsWith(`${o}/`)));
  for (const rel of chosen) {
    const src = path.join(checkout, rel);
    const dst = path.join(worktree, rel);
    // Where the copy really lands: a folder link the repository commits (`conf -> /tmp/outside`) would carry it out.
    const lands = writeLandsWithin(worktree, dst);
    if (!lands.ok) {
      result.outside.push({ path: rel, why: lands.why });
      continue;
    }
    if (exists(dst)) {
      result.skipped.push({ path: rel, why: 'the worktree already has it (git carries it)' });
      continue;
    }
    const isDir = statSync(src).isDirectory();
    cpSync(src, dst, { recursive: true, dereference: true, preserveTimestamps: true, errorOnExist: false, force: false });
    result.copied.push(isDir ? `${rel}/` : rel);
  }
  return result;
}
