// Each run's private folder (HOME and TMPDIR inside the sandbox) under <tmp>/ratchet-sandbox-<uid>: made when the run starts, removed when it finishes, and swept at engine start when no process uses it and no run will again.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RatchetError } from '../errors';
import { processAlive } from '../process/process-alive';

/** One root per user: another user's Ratchet (or anyone who made the folder first) never shares it. */
export function privateRoot(): string {
  const uid = process.getuid?.();
  return path.join(tmpdir(), uid === undefined ? 'ratchet-sandbox' : `ratchet-sandbox-${uid}`);
}

/**
 * Makes the root of the private folders (mode 0700) or checks the one there: a folder, not a link, owned by this
 * user, open to no one else. The temp folder is shared by every user, so a root someone else made first (or widened)
 * would let them read or swap every run's HOME: refused, never repaired.
 */
export function ensurePrivateRoot(root = privateRoot()): string {
  try {
    mkdirSync(root, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const st = lstatSync(root);
  const uid = process.getuid?.();
  const problem = !st.isDirectory()
    ? 'it is not a folder'
    : uid !== undefined && st.uid !== uid
      ? `it belongs to uid ${st.uid}, not to you (uid ${uid})`
      : process.platform !== 'win32' && (st.mode & 0o077) !== 0
        ? `others may open it (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}, not 0700)`
        : null;
  if (problem) {
    throw new RatchetError(
      'private_root_unsafe',
      `Ratchet will not keep runs' private folders in ${root}: ${problem}. Remove it (or make it yours with mode 0700) and start again.`,
    );
  }
  return root;
}

export interface PrivateDir {
  dir: string;
  home: string;
  tmp: string;
}

/** Who holds a private folder: a file beside it (not in it, where the sandbox could rewrite it). */
function ownerFile(dir: string): string {
  return `${dir}.owner`;
}

export function makePrivateDir(worktree: string, root = privateRoot()): PrivateDir {
  ensurePrivateRoot(root);
  const dir = path.join(root, path.basename(worktree));
  const home = path.join(dir, 'home');
  const tmp = path.join(dir, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(ownerFile(dir), `${process.pid}\n`);
  return { dir, home, tmp };
}

/** Removes a tree whatever its modes (Go writes its module cache read-only, and so may any build). */
export function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
    return;
  } catch {
    // Read-only folders: make them writable, then remove.
  }
  const walk = (d: string) => {
    try {
      chmodSync(d, 0o700);
      for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(path.join(d, e.name));
    } catch {
      // Gone meanwhile, or not ours to change: rmSync says which.
    }
  };
  walk(dir);
  rmSync(dir, { recursive: true, force: true });
}

export function removePrivateDir(dir: string): void {
  removeTree(dir);
  rmSync(ownerFile(dir), { force: true });
}

/** What the store says of the run a private folder belongs to (by its worktree's name). */
export type PrivateDirState = 'live' | 'finished' | 'unknown';

/** A folder no store here knows (another RATCHET_HOME's, or one a crash left) is removed once this old. */
const UNKNOWN_AFTER_MS = 24 * 60 * 60 * 1000;

function mtimeOf(p: string): number | null {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Removes the private folders no process uses and no run will use again: a finished run's at once, one no store here
 * knows after a day; a run that can still resume (paused, waiting, interrupted) keeps its folder — a command agent's
 * session lives in its HOME. Returns what it removed.
 */
export function sweepPrivateDirs(root = privateRoot(), stateOf: (name: string) => PrivateDirState = () => 'unknown', now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (name.endsWith('.owner')) continue;
    const dir = path.join(root, name);
    const state = stateOf(name);
    if (state === 'live') continue;
    const owner = existsSync(ownerFile(dir)) ? Number.parseInt(readFileSync(ownerFile(dir), 'utf8'), 10) : null;
    if (owner !== null && Number.isInteger(owner) && owner > 0 && processAlive(owner)) continue;
    const touched = mtimeOf(ownerFile(dir)) ?? mtimeOf(dir);
    if (touched === null || (state === 'unknown' && now - touched < UNKNOWN_AFTER_MS)) continue;
    try {
      removePrivateDir(dir);
      removed.push(dir);
    } catch {
      // Not ours to remove: the next sweep tries again.
    }
  }
  for (const name of names.filter((n) => n.endsWith('.owner'))) {
    if (!existsSync(path.join(root, name.slice(0, -'.owner'.length)))) rmSync(path.join(root, name), { force: true });
  }
  return removed;
}

type RunDirRow = { worktree: string; finished_at: string | null };

/**
 * The sweep with what a store knows of its runs: a folder is named after its run's worktree. `runs` may be a function,
 * called only when the root holds a folder to decide about (a start with none reads no run at all).
 */
export function sweepPrivateDirsOf(runs: ReadonlyArray<RunDirRow> | (() => ReadonlyArray<RunDirRow>), root = privateRoot()): string[] {
  let state: Map<string, PrivateDirState> | undefined;
  return sweepPrivateDirs(root, (name) => {
    state ??= new Map(
      (typeof runs === 'function' ? runs() : runs).map((r) => [path.basename(r.worktree), r.finished_at ? ('finished' as const) : ('live' as const)]),
    );
    return state.get(name) ?? 'unknown';
  });
}
