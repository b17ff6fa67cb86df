// Confines the paths an agent's tools touch to its git worktree: resolves `..` and symlinks and refuses anything that lands outside, or in `.git` when writing.
// Ratchet's own hands use it too where they act on a path the agent could have shaped (a gate's report file).
import { constants, existsSync } from 'node:fs';
import { lstat, open, readlink, realpath, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isWithin } from './within';
import { worktreeDeniedPathOf } from './worktree-denies';

export type ToolErrorCode =
  | 'outside_worktree'
  | 'git_metadata'
  | 'protected_path'
  | 'invalid_path'
  | 'symlink_loop'
  | 'hard_link'
  | 'path_changed'
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
    throw new ToolError('outside_worktree', `Path ${p} is outside the worktree${via}; paths must stay inside the worktree ${realRoot}.`);
  }
  if (mode === 'write' && (touchesGitDir(realRoot, real) || touchesGitDir(spelledRoot, lexical))) {
    throw new ToolError('git_metadata', `Path ${p} is inside .git; writing git metadata is not allowed — paths must stay among the worktree's own files.`);
  }
  const denied = mode === 'write' ? (worktreeDeniedPathOf(path.relative(realRoot, real)) ?? worktreeDeniedPathOf(path.relative(spelledRoot, lexical))) : null;
  if (denied) throw protectedPath(p, denied);
  return real;
}

/** The refusal of a path the sandbox keeps read-only (worktree-denies.ts): the edit tool writes none of them either. */
function protectedPath(p: string, denied: string): ToolError {
  return new ToolError(
    'protected_path',
    `Path ${p} is protected (${denied}): it configures git, git-lfs, a shell or an editor that runs outside the sandbox, so neither your commands nor this tool may write it.`,
  );
}

/** Linux exposes the kernel's own path of an open descriptor; macOS has no /proc (see openConfined). */
const PROC_FD = existsSync('/proc/self/fd') ? '/proc/self/fd' : null;

/**
 * Opens `real` (a path resolveInside returned) for reading and writing, and proves that the file opened is
 * the one checked: a regular file inside the worktree, outside `.git`, with exactly one link.
 *
 * Why this is race-free on Linux: the check in resolveInside and the open are two steps, and any directory of
 * the path can be swapped for a symlink in between. So the open itself is never trusted. O_NOFOLLOW refuses a
 * symlink as the last component; then the kernel tells where the descriptor really points
 * (readlink of /proc/self/fd/N, which names the opened inode's path, not the path we asked for) and that path
 * is checked again. All reads and writes then go through this descriptor, which cannot be redirected. The file
 * is opened without O_TRUNC, so nothing is changed before the proof; a file created by the open (O_EXCL, so
 * never an existing one) is at worst an empty file left where the swap pointed.
 * A hard link is refused: the descriptor's path is the link inside the worktree, but the bytes are shared with
 * a file outside (fstat's nlink > 1).
 *
 * macOS (no /proc): the fallback re-resolves the checked path after the open and compares its device and inode
 * with the descriptor's (fstat). That catches a swap that is still in place when the open returns; a swap made
 * and undone between the open and the re-check is not caught there — the OS sandbox is the
 * boundary on macOS, this check a second line.
 */
export async function openConfined(
  root: string,
  real: string,
  opts: { create: boolean; readOnly?: boolean },
): Promise<{ handle: FileHandle; created: boolean }> {
  const realRoot = await realpath(root);
  // O_NONBLOCK: a FIFO at the path must not hold Ratchet up at the open (fstat then refuses it); no effect on a file.
  const base = (opts.readOnly ? constants.O_RDONLY : constants.O_RDWR) | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let handle: FileHandle;
  let created = false;
  try {
    handle = await open(real, base);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ELOOP' || code === 'EMLINK') throw new ToolError('path_changed', `${real} became a symbolic link after it was checked; nothing was written.`);
    if (code !== 'ENOENT' || !opts.create) throw err;
    handle = await open(real, base | constants.O_CREAT | constants.O_EXCL, 0o644);
    created = true;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new ToolError('wrong_kind', `${real} is not a regular file.`);
    if (info.nlink > 1) {
      throw new ToolError(
        'hard_link',
        `${real} is a hard link (${info.nlink} links): it may share its content with a file outside the worktree, so the editor will not write it. Copy it to a new file instead.`,
      );
    }
    let actual: string;
    if (PROC_FD) {
      actual = await readlink(`${PROC_FD}/${handle.fd}`);
    } else {
      actual = await realpath(real);
      const now = await lstat(actual);
      if (now.dev !== info.dev || now.ino !== info.ino) throw new ToolError('path_changed', `${real} changed while it was being opened; nothing was written.`);
    }
    if (!isWithin(realRoot, actual) || touchesGitDir(realRoot, actual)) {
      throw new ToolError('path_changed', `${real} was moved out of the worktree after it was checked (it is now ${actual}); nothing was written.`);
    }
    const denied = opts.readOnly ? null : worktreeDeniedPathOf(path.relative(realRoot, actual));
    if (denied) throw protectedPath(path.relative(realRoot, actual), denied);
    return { handle, created };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/**
 * Removes the entry `p` (relative to `root`) names — a file, or a symbolic link itself, never what it points to — only
 * when the folder holding it really is inside `root`: an agent's `ln -s /elsewhere reports` makes `reports/x` name a
 * file outside, which this leaves alone. Returns whether something was removed; a folder is left as it is.
 *
 * Race-free on Linux as openConfined is: the folder is opened (O_NOFOLLOW), the kernel says where the descriptor
 * really is (/proc/self/fd/N), and the entry is removed through that descriptor's path, which a swap cannot redirect.
 * macOS: the folder's real path is checked after it is opened (see openConfined for what that leaves).
 */
export async function removeInside(root: string, p: string): Promise<boolean> {
  const realRoot = await realpath(root);
  const lexical = path.isAbsolute(p) ? path.resolve(p) : path.resolve(realRoot, p);
  const name = path.basename(lexical);
  if (lexical === realRoot || name === '..' || name === '.') return false;
  const folder = await resolveInside(root, path.dirname(lexical), 'write');
  const dir = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    const actual = PROC_FD ? await readlink(`${PROC_FD}/${dir.fd}`) : await realpath(folder);
    if (!isWithin(realRoot, actual) || touchesGitDir(realRoot, actual)) {
      throw new ToolError('path_changed', `${folder} was moved out of the worktree after it was checked (it is now ${actual}); nothing was removed.`);
    }
    const entry = PROC_FD ? `${PROC_FD}/${dir.fd}/${name}` : path.join(actual, name);
    let info;
    try {
      info = await lstat(entry);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return false;
      throw err;
    }
    if (info.isDirectory()) return false;
    await unlink(entry);
    return true;
  } finally {
    await dir.close();
  }
}
