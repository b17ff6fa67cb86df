// The folder browser the headless host serves in place of a native Open… dialog: one folder's subfolders, git repositories marked.
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { RatchetError } from '../errors';

export interface BrowseEntry {
  name: string;
  path: string;
  isGitRepo: boolean;
}

export interface BrowseResult {
  dir: string;
  /** The folder above, or null at the file system's root. */
  parent: string | null;
  /** The folder itself is a repository's working folder (it holds `.git`). */
  isGitRepo: boolean;
  entries: BrowseEntry[];
  /** Subfolders left out past the limit. */
  truncated: number;
}

/** Most entries one listing answers (a folder of 50 000 build outputs must not flood the page). */
export const BROWSE_LIMIT = 2000;

function holdsGit(dir: string): boolean {
  // A `.git` folder (a repository) or file (a worktree or submodule); the cheap check, no git process per entry.
  return existsSync(join(dir, '.git'));
}

function isFolder(parent: string, d: Dirent): boolean {
  if (d.isDirectory()) return true;
  if (!d.isSymbolicLink()) return false;
  try {
    return statSync(join(parent, d.name)).isDirectory();
  } catch {
    return false;
  }
}

/** Lists the subfolders of `dir` (the home folder when omitted; `~` is the home folder), hidden ones only when asked, sorted by name. */
export function browseFolders(input: { dir?: string | null; showHidden?: boolean }, home: string = homedir()): BrowseResult {
  const raw = input.dir?.trim() || home;
  const expanded = raw === '~' ? home : raw.startsWith('~/') ? join(home, raw.slice(2)) : raw;
  if (!isAbsolute(expanded)) throw new RatchetError('bad_arguments', `${raw} is not a full path. Start it with / (or ~ for your home folder).`);
  const dir = resolve(expanded);
  let items: Dirent[];
  try {
    if (!statSync(dir).isDirectory()) throw new RatchetError('not_a_directory', `${dir} is a file, not a folder. Choose the folder that holds it.`);
    items = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (err instanceof RatchetError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RatchetError('not_a_directory', `${dir} does not exist. Check the path, or go up a folder.`);
    if (code === 'EACCES' || code === 'EPERM') throw new RatchetError('forbidden', `You may not read ${dir}. Choose another folder.`);
    throw new RatchetError('internal', `${dir} could not be read: ${(err as Error).message}`);
  }
  const folders = items
    .filter((d) => (input.showHidden || !d.name.startsWith('.')) && isFolder(dir, d))
    .map((d) => d.name)
    .sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));
  const entries = folders.slice(0, BROWSE_LIMIT).map((name) => {
    const path = join(dir, name);
    return { name, path, isGitRepo: holdsGit(path) };
  });
  const up = dirname(dir);
  return { dir, parent: up === dir ? null : up, isGitRepo: holdsGit(dir), entries, truncated: Math.max(0, folders.length - BROWSE_LIMIT) };
}
