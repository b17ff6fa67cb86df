// Reading a file in a worktree or checkout, the project's one way: inside the folder, a regular file, an open that cannot block, up to a cap.
import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isWithin } from './within';

/** What is read of a file when the caller names no cap: more than any lockfile, manifest or report Ratchet reads. */
export const DEFAULT_READ_CAP_BYTES = 64 * 1024 * 1024;

/** Why a file was not read. */
export type UnreadableKind = 'absent' | 'outside' | 'not_regular' | 'unreadable';

export type FileRead =
  | {
      ok: true;
      bytes: Buffer;
      /** The file's size when opened; more than `bytes.length` when the cap cut it. */
      size: number;
      truncated: boolean;
      mtimeMs: number;
    }
  | { ok: false; kind: UnreadableKind; message: string };

export interface ReadOptions {
  /** At most this many bytes are read (the rest is left, `truncated` says so). Default DEFAULT_READ_CAP_BYTES. */
  maxBytes?: number;
}

// O_NONBLOCK: opening a FIFO waits for a writer, forever; with it the open returns and fstat says what it is. On a
// regular file it changes nothing. O_NOFOLLOW: the path opened is the real one checked, so a link there now was
// swapped in since. O_NOCTTY: a terminal device never becomes Ratchet's.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);

/** Linux names the file a descriptor really has open; macOS has no /proc (see landedInside). */
const PROC_FD = existsSync('/proc/self/fd') ? '/proc/self/fd' : null;

function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

const fail = (kind: UnreadableKind, message: string): FileRead => ({ ok: false, kind, message });

/** Where `p` (relative to `root`, or absolute) really is, or why it is not readable as a file of `root`. */
function placed(realRoot: string, p: string, realOf: string | null): { real: string } | FileRead {
  if (realOf === null) return fail('absent', `${p} does not exist`);
  if (!isWithin(realRoot, realOf)) return fail('outside', `${p} leads out of ${realRoot} (to ${realOf})`);
  return { real: realOf };
}

function kindError(p: string, st: Stats): FileRead | null {
  if (st.isFile()) return null;
  const what = st.isFIFO()
    ? 'a FIFO'
    : st.isCharacterDevice() || st.isBlockDevice()
      ? 'a device'
      : st.isSocket()
        ? 'a socket'
        : st.isDirectory()
          ? 'a folder'
          : 'not a file';
  return fail('not_regular', `${p} is not a regular file (${what})`);
}

function lexicalPath(realRoot: string, root: string, p: string): string {
  if (!path.isAbsolute(p)) return path.resolve(realRoot, p);
  // An absolute path spelled through the root as given (a link in its own path): the same file under the real root.
  const abs = path.resolve(p);
  const given = path.resolve(root);
  return isWithin(given, abs) ? path.join(realRoot, path.relative(given, abs)) : abs;
}

/**
 * Reads the file `p` names inside `root` (a worktree, a checkout): links on the way are followed only while they stay
 * inside `root`; the file is opened without following a link and without blocking, must be a regular file (never a
 * FIFO, a device such as `/dev/zero`, a socket), and is read up to `maxBytes`. The descriptor's own path is checked
 * again after the open (Linux: /proc/self/fd; macOS: device and inode compared with the path re-resolved), so a
 * folder swapped for a link between the check and the open is caught. Never throws.
 */
export async function readWorktreeFile(root: string, p: string, opts: ReadOptions = {}): Promise<FileRead> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return fail('absent', `${root} does not exist`);
  }
  const lexical = lexicalPath(realRoot, root, p);
  const where = placed(realRoot, p, await realpath(lexical).catch(() => null));
  if (!('real' in where)) return where;
  let handle;
  try {
    handle = await open(where.real, OPEN_FLAGS);
  } catch (err) {
    const code = errnoCode(err);
    return code === 'ENOENT' ? fail('absent', `${p} does not exist`) : fail('unreadable', `${p} could not be opened (${code ?? String(err)})`);
  }
  try {
    const st = await handle.stat();
    const bad = kindError(p, st);
    if (bad) return bad;
    const actual = PROC_FD ? await readlink(`${PROC_FD}/${handle.fd}`) : await realpath(where.real);
    if (!PROC_FD) {
      const now = await stat(actual);
      if (now.dev !== st.dev || now.ino !== st.ino) return fail('outside', `${p} changed while it was being opened`);
    }
    if (!isWithin(realRoot, actual)) return fail('outside', `${p} was moved out of ${realRoot} while it was being opened (it is now ${actual})`);
    const cap = Math.max(0, Math.min(opts.maxBytes ?? DEFAULT_READ_CAP_BYTES, st.size));
    const buf = Buffer.alloc(cap);
    let got = 0;
    while (got < cap) {
      const { bytesRead } = await handle.read(buf, got, cap - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { ok: true, bytes: buf.subarray(0, got), size: st.size, truncated: st.size > got, mtimeMs: st.mtimeMs };
  } catch (err) {
    return fail('unreadable', `${p} could not be read (${errnoCode(err) ?? String(err)})`);
  } finally {
    await handle.close();
  }
}

function realpathOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** readWorktreeFile for synchronous callers (a classifier's context, a leak check): the same checks, the same answers. */
export function readWorktreeFileSync(root: string, p: string, opts: ReadOptions = {}): FileRead {
  const realRoot = realpathOrNull(root);
  if (realRoot === null) return fail('absent', `${root} does not exist`);
  const where = placed(realRoot, p, realpathOrNull(lexicalPath(realRoot, root, p)));
  if (!('real' in where)) return where;
  let fd: number;
  try {
    fd = openSync(where.real, OPEN_FLAGS);
  } catch (err) {
    const code = errnoCode(err);
    return code === 'ENOENT' ? fail('absent', `${p} does not exist`) : fail('unreadable', `${p} could not be opened (${code ?? String(err)})`);
  }
  try {
    const st = fstatSync(fd);
    const bad = kindError(p, st);
    if (bad) return bad;
    const actual = PROC_FD ? readlinkSync(`${PROC_FD}/${fd}`) : realpathSync(where.real);
    if (!PROC_FD) {
      const now = statSync(actual);
      if (now.dev !== st.dev || now.ino !== st.ino) return fail('outside', `${p} changed while it was being opened`);
    }
    if (!isWithin(realRoot, actual)) return fail('outside', `${p} was moved out of ${realRoot} while it was being opened (it is now ${actual})`);
    const cap = Math.max(0, Math.min(opts.maxBytes ?? DEFAULT_READ_CAP_BYTES, st.size));
    const buf = Buffer.alloc(cap);
    let got = 0;
    while (got < cap) {
      const n = readSync(fd, buf, got, cap - got, got);
      if (n === 0) break;
      got += n;
    }
    return { ok: true, bytes: buf.subarray(0, got), size: st.size, truncated: st.size > got, mtimeMs: st.mtimeMs };
  } catch (err) {
    return fail('unreadable', `${p} could not be read (${errnoCode(err) ?? String(err)})`);
  } finally {
    closeSync(fd);
  }
}

/** The file's text (UTF-8) when it reads, else null: for callers to whom a missing and a refused file are the same. */
export function textOf(r: FileRead): string | null {
  return r.ok ? r.bytes.toString('utf8') : null;
}
