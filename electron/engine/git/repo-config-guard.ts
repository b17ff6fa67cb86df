// Repository config guard: snapshots the git config files an agent could rewrite (main config, config.worktree, includes) and puts them back after an attempt.
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, basename, join, resolve } from 'node:path';
import { git, type GitPlace } from './repo-git';

/** Each watched config file and its content when the snapshot was taken (null: it did not exist). */
export interface RepoConfigSnapshot {
  files: Map<string, string | null>;
}

/** Git as the engine runs it, with the user's global config left out (only the repository's own files are watched). */
function runGit(place: GitPlace, args: string[]): Promise<string> {
  return git(place, [], { GIT_CONFIG_GLOBAL: '/dev/null' }).raw(args);
}

async function readOrNull(p: string): Promise<string | null> {
  try {
    return await readFile(p, 'utf8');
  } catch {
    return null;
  }
}

/** The config files git reads for `dir` besides the user's own: the common config, both config.worktree places and every included file. */
async function watchedFiles(place: GitPlace): Promise<string[]> {
  const dir = typeof place === 'string' ? place : place.worktree;
  // Both only read, so they run side by side.
  // --show-origin lists every file an entry came from, includes (and includeIf) among them; system/global are left out.
  // An unreadable config is still watched through the fixed files below.
  const [dirs, listed] = await Promise.all([
    runGit(place, ['rev-parse', '--git-common-dir', '--git-dir']),
    runGit(place, ['config', '--list', '--show-origin', '--includes', '-z']).catch(() => ''),
  ]);
  const [commonDir = '.git', ownDir = '.git'] = dirs.trim().split('\n');
  const common = resolve(dir, commonDir.trim());
  const own = resolve(dir, ownDir.trim());
  const files = new Set([join(common, 'config'), join(common, 'config.worktree'), join(own, 'config.worktree')]);
  for (const rec of listed.split('\0')) {
    if (rec.startsWith('file:')) files.add(resolve(dir, rec.slice('file:'.length)));
  }
  return [...files];
}

/** Records the repository's config files as they are now (call it before the agent works; a run's worktree is passed pinned). */
export async function snapshotRepoConfig(place: GitPlace): Promise<RepoConfigSnapshot> {
  const files = new Map<string, string | null>();
  for (const f of await watchedFiles(place)) files.set(f, await readOrNull(f));
  return { files };
}

/**
 * Puts every watched config file back as the snapshot saw it and returns the paths that had changed
 * (empty: nothing to report). A file replaced by a symlink is replaced again (rename), never written through.
 */
export async function restoreRepoConfig(snap: RepoConfigSnapshot): Promise<string[]> {
  const changed: string[] = [];
  for (const [file, was] of snap.files) {
    const now = await readOrNull(file);
    if (now === was) continue;
    changed.push(file);
    if (was === null) {
      await rm(file, { force: true });
    } else {
      const tmp = join(dirname(file), `.${basename(file)}.ratchet-${randomBytes(4).toString('hex')}`);
      await writeFile(tmp, was, { flag: 'wx' });
      await rename(tmp, file);
    }
  }
  return changed;
}

/** What the step loop needs of the store to report a revert (an event and a log line). */
interface ConfigGuardEvents {
  event(runId: string, type: 'git.config_reverted', payload: { step: number; files: string[] }): void;
  event(runId: string, type: 'log', payload: { level: string; message: string }): void;
}

/** Reverts config the agent changed during the attempt and reports it; returns the files that were put back. */
export async function guardRepoConfig(store: ConfigGuardEvents, runId: string, step: number, snap: RepoConfigSnapshot): Promise<string[]> {
  const changed = await restoreRepoConfig(snap);
  if (changed.length > 0) {
    store.event(runId, 'git.config_reverted', { step, files: changed });
    store.event(runId, 'log', { level: 'warn', message: `step ${step}: the agent changed git config (${changed.join(', ')}); Ratchet put it back` });
  }
  return changed;
}
