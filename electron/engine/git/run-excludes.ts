// The run's own exclude file: what Ratchet put in the worktree (copied files, reused dependencies, setup's output, gates' leftovers) is never committed. Ratchet's git reads it as core.excludesFile, with the user's own excludes folded in.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { WORKTREE_DENIED_PATHS } from '../fs/worktree-denies';

const HEADER = "# Ratchet: files in this run's worktree that are not the project's (copied, installed, left by gates); Ratchet never commits them.\n";
const USER_START = '# --- your own excludes (core.excludesFile) ---\n';
const USER_END = '# --- end of your own excludes ---\n';
const PLACEHOLDERS = "# the sandbox's placeholders at the paths it protects (sandboxed commands cannot write there: never the agent's work)";

/**
 * Where the run's exclude file lives: beside the worktree (`<worktrees>/.ratchet-env/<name>/exclude`), where the
 * sandbox cannot write, so the agent cannot hide its own files from the step's commit.
 */
export function runExcludesFile(worktree: string): string {
  const abs = path.resolve(worktree);
  return path.join(path.dirname(abs), '.ratchet-env', path.basename(abs), 'exclude');
}

/** The `-c` setting every Ratchet git command on the worktree adds once the run has an exclude file; none before. */
export function runExcludesConfig(dir: string): string[] {
  const file = runExcludesFile(dir);
  return existsSync(file) ? [`core.excludesFile=${file}`] : [];
}

/** The user's own global excludes file, as git would find it (core.excludesFile, else $XDG_CONFIG_HOME/git/ignore). */
export function userExcludesFile(configured: string | null, env: NodeJS.ProcessEnv = process.env): string {
  if (configured) return configured.startsWith('~/') ? path.join(env.HOME ?? homedir(), configured.slice(2)) : configured;
  const xdg = env.XDG_CONFIG_HOME || path.join(env.HOME ?? homedir(), '.config');
  return path.join(xdg, 'git', 'ignore');
}

/** A path as one anchored gitignore line (`/dir/` for a folder), its special characters escaped. */
export function excludeLine(relative: string): string {
  const dir = relative.endsWith('/');
  const bare = relative.replace(/^\/+|\/+$/g, '');
  const escaped = bare.replace(/[\\*?[\]!#]/g, '\\$&').replace(/ $/, '\\ ');
  return `/${escaped}${dir ? '/' : ''}`;
}

/**
 * Creates the run's exclude file (once): the header, then the user's own excludes (`userFile`'s content, since
 * core.excludesFile replaces theirs). With `sandboxed`, the paths the sandbox protects in the worktree follow: on
 * Linux it holds an absent one with an empty placeholder (a `/dev/null` mount inside), which a kill -9 can leave
 * behind; ignored here, Ratchet's git neither stages nor reports them (a pathspec exclude would make `git add`
 * refuse them once they are ignored). Added to a file made before, so a resumed run gets them too. Returns its path.
 */
export function initRunExcludes(worktree: string, userFile: string, opts: { sandboxed?: boolean } = {}): string {
  const file = runExcludesFile(worktree);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    let own = '';
    try {
      own = readFileSync(userFile, 'utf8');
    } catch {
      // The user has no global excludes.
    }
    writeFileSync(file, `${HEADER}${USER_START}${own}${own.endsWith('\n') || own === '' ? '' : '\n'}${USER_END}`);
  }
  if (opts.sandboxed && !readFileSync(file, 'utf8').includes(PLACEHOLDERS)) {
    appendFileSync(file, `${PLACEHOLDERS}\n${WORKTREE_DENIED_PATHS.map(excludeLine).join('\n')}\n`);
  }
  return file;
}

/** The paths this run excluded so far (relative; folders end in `/`). */
export function runExcludes(worktree: string): string[] {
  let text: string;
  try {
    text = readFileSync(runExcludesFile(worktree), 'utf8');
  } catch {
    return [];
  }
  const end = text.indexOf(USER_END);
  const ours = end >= 0 ? text.slice(end + USER_END.length) : text;
  return ours
    .split('\n')
    .filter((l) => l.startsWith('/'))
    .map((l) => l.slice(1).replace(/\\(.)/g, '$1'));
}

/** Adds paths (relative; a folder ends in `/`) under a comment saying why; those already there are not repeated. Returns the ones added. */
export function addRunExcludes(worktree: string, paths: readonly string[], why: string): string[] {
  const file = runExcludesFile(worktree);
  if (!existsSync(file)) throw new Error(`the run's exclude file was not made: ${file}`);
  const have = new Set(runExcludes(worktree));
  const fresh = [...new Set(paths)].filter((p) => p !== '' && !have.has(p));
  if (fresh.length) appendFileSync(file, `# ${why.replace(/\n/g, ' ')}\n${fresh.map(excludeLine).join('\n')}\n`);
  return fresh;
}

/** Removes the run's exclude file and its folder (a temporary worktree's, when it is removed). */
export function removeRunExcludes(worktree: string): void {
  rmSync(path.dirname(runExcludesFile(worktree)), { recursive: true, force: true });
}
