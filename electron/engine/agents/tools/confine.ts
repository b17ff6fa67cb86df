// Confines the paths an agent's tools touch to its git worktree: resolves `..` and symlinks and refuses anything that lands outside, or in `.git` when writing.
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

export type ToolErrorCode =
  | 'outside_worktree'
  | 'git_metadata'
  | 'invalid_path'
  | 'symlink_loop'
  | 'invalid_input'
  | 'not_found'
  | 'wrong_kind'
  | 'binary_file'
  | 'too_large'
  | 'no_match'
  | 'ambiguous_match'
  | 'out_of_range';

/** An error the agent caused and can fix; its message is written for the model to read. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** `read` lets the agent look inside `.git` (harmless, sometimes useful); `write` refuses it. */
export type AccessMode = 'read' | 'write';

// Same bound the kernel uses (MAXSYMLINKS); deeper chains are almost certainly a loop.
const MAX_LINK_HOPS = 40;

function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/**
 * The real path `abs` would reach. For a target that does not exist yet this is the real path of its
 * nearest existing ancestor plus the missing tail, and a dangling symlink is followed to where it would
 * create its file — otherwise writing through it could land anywhere.
 */
async function realpathLoose(abs: string, hops: number): Promise<string> {
  if (hops > MAX_LINK_HOPS) {
    throw new ToolError('symlink_loop', `Too many levels of symbolic links while resolving ${abs}.`);
  }
  try {
    return await realpath(abs);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ELOOP') throw new ToolError('symlink_loop', `Too many levels of symbolic links while resolving ${abs}.`);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const candidate = path.join(await realpathLoose(parent, hops), path.basename(abs));
  let isLink = false;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch (err) {
    const code = errnoCode(err);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  if (!isLink) return candidate;
  const target = path.resolve(path.dirname(candidate), await readlink(candidate));
  return realpathLoose(target, hops + 1);
}

/** Whether `p` is `root` or below it; both must already be absolute and resolved the same way. */
export function isWithin(root: string, p: string): boolean {
  if (p === root) return true;
  const rel = path.relative(root, p);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function touchesGitDir(root: string, p: string): boolean {
  // Lower-cased because macOS and Windows file systems would happily open `.GIT/config`.
  return path
    .relative(root, p)
    .split(path.sep)
    .some((segment) => segment.toLowerCase() === '.git');
}

/**
 * Resolves `p` (absolute, or relative to `root`) to a real path inside `root`, or throws a ToolError.
 * The returned path is the one to operate on: it is what was checked, symlinks already followed.
 */
export async function resolveInside(root: string, p: string, mode: AccessMode = 'write'): Promise<string> {
  if (p.trim() === '' || p.includes('\0')) {
    throw new ToolError('invalid_path', `Invalid path ${JSON.stringify(p)}: give a file or directory path inside the worktree.`);
  }
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    throw new ToolError('invalid_path', `The worktree ${root} does not exist or cannot be read.`);
  }
  const lexical = path.isAbsolute(p) ? path.resolve(p) : path.resolve(realRoot, p);
  // Also accept absolute paths spelled through the unresolved root (e.g. /tmp vs /private/tmp on macOS).
  const absRoot = path.resolve(root);
  const spelledRoot = isWithin(absRoot, lexical) ? absRoot : realRoot;
  const real = await realpathLoose(lexical, 0);
  if (!isWithin(realRoot, real)) {
    const via = real === lexical ? '' : ` (it resolves to ${real})`;
    throw new ToolError(
      'outside_worktree',
      `Path ${p} is outside the worktree${via}; paths must stay inside the worktree ${realRoot}.`,
    );
  }
  if (mode === 'write' && (touchesGitDir(realRoot, real) || touchesGitDir(spelledRoot, lexical))) {
    throw new ToolError(
      'git_metadata',
      `Path ${p} is inside .git; writing git metadata is not allowed — paths must stay among the worktree's own files.`,
    );
  }
  return real;
}
