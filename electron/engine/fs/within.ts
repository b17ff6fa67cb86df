// Path containment, the project's one check: whether a path is a folder or lies below it.
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
