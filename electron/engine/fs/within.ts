// Path containment, the project's one check: whether a path is a folder or lies below it (lexically, or where a write would really land).
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Whether `p` is `root` or below it; both must already be absolute and resolved the same way (lexically, or both
 * through realpath). A child named `..x` is inside: only `..` itself or `../…` leaves the root.
 */
export function isWithin(root: string, p: string): boolean {
  if (p === root) return true;
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Whether `p` lies strictly below `root` (inside it and not the folder itself). */
export function isBelow(root: string, p: string): boolean {
  return path.relative(root, p) !== '' && isWithin(root, p);
}

/**
 * Where a file written at `p` would really land, when that is inside `root`; else why not. The nearest folder of `p`
 * that exists is resolved (links followed) and must be inside `root`'s real path: a link on the way out of `root`,
 * such as a folder link the repository commits (`conf -> /tmp/outside`), or a dangling one (which `mkdir -p` would
 * follow) is refused. Missing folders below it are created inside `root` by whoever writes. Links below `root` that
 * stay inside are fine.
 */
export function writeLandsWithin(root: string, p: string): { ok: true } | { ok: false; why: string } {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { ok: false, why: `${root} does not exist` };
  }
  const abs = path.resolve(root, p);
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    let real: string | null = null;
    try {
      real = realpathSync(dir);
    } catch {
      // Not there: a dangling link would be followed by mkdir, a missing folder is made where its parent is.
      try {
        if (lstatSync(dir).isSymbolicLink())
          return { ok: false, why: `${path.relative(root, dir)} is a link to nowhere, which a write would follow out of the worktree` };
      } catch {
        // Missing: look at its parent.
      }
    }
    if (real !== null) {
      if (isWithin(realRoot, real)) return { ok: true };
      const shown = path.relative(path.resolve(root), dir) || '.';
      return { ok: false, why: `${shown} leads to ${real}, outside the worktree` };
    }
    if (path.dirname(dir) === dir) return { ok: false, why: `no folder of ${p} exists` };
  }
}
