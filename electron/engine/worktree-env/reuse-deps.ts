// Dependencies without waiting: when the user's checkout has node_modules installed (or a Rust target/ built) from the same lockfile as the worktree's, the worktree gets a real copy of them (copy-on-write where the file system has it) instead of an install or a build from scratch.
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { ReusedDoc } from '../../../shared/worktree-env';
import { writeLandsWithin } from '../fs/within';
import { readWorktreeFile } from '../fs/worktree-file';
import { copyTree } from './copy-tree';
import { reuseCMakeBuild } from './reuse-cmake-build';

/** Lockfiles that pin a node_modules folder, in the order package managers prefer them. */
export const NODE_LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock'] as const;

export interface ReuseResult {
  reused: ReusedDoc[];
  /** Why a folder was not reused (said once, in the run's log). */
  notes: string[];
}

/** The lockfile's hash, read as every worktree file is (readWorktreeFile); null when it is not a regular file of `root`. */
async function sha(root: string, rel: string): Promise<string | null> {
  const r = await readWorktreeFile(root, rel);
  if (!r.ok) return null;
  const h = createHash('sha256').update(r.bytes);
  if (r.truncated) h.update(`\0size:${r.size}`);
  return h.digest('hex');
}

async function isRealDir(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Copies `rel` (a folder) from the checkout into the worktree when the checkout has it as a real folder and the worktree has none yet. */
async function reuseFolder(checkout: string, worktree: string, rel: string, because: string, result: ReuseResult, signal?: AbortSignal): Promise<void> {
  const src = path.join(checkout, rel);
  const dst = path.join(worktree, rel);
  if (!(await isRealDir(src)) || (await exists(dst))) return;
  // Only into the worktree: a folder on the way that is a link out of it (committed so) would carry the copy outside.
  const lands = writeLandsWithin(worktree, dst);
  if (!lands.ok) {
    result.notes.push(`${rel} not copied from your checkout: ${lands.why}`);
    return;
  }
  const t0 = performance.now();
  const method = await copyTree(src, dst, { signal });
  result.reused.push({ path: `${rel}/`, because, method, durationMs: Math.round(performance.now() - t0) });
}

/**
 * Whether every one of `keys` (files at the root) is byte-for-byte the same in the worktree and the checkout. When
 * the worktree has them but the checkout's differ, says why `folder` was not copied (if the checkout has one).
 */
async function sameKeys(checkout: string, worktree: string, keys: readonly string[], folder: string, result: ReuseResult): Promise<boolean> {
  for (const key of keys) {
    const [mine, theirs] = await Promise.all([sha(worktree, key), sha(checkout, key)]);
    if (!mine) return false;
    if (mine !== theirs) {
      if (theirs && (await isRealDir(path.join(checkout, folder)))) {
        result.notes.push(`${folder} not copied from your checkout: its ${key} differs from the base commit's`);
      }
      return false;
    }
  }
  return true;
}

/** Files at a Cargo project's root that pin what its target/ holds: the build is the same when both are. */
export const CARGO_KEYS = ['Cargo.lock', 'Cargo.toml'] as const;

/**
 * Copies the checkout's dependency folders into the worktree when the files that pin them are byte-for-byte the
 * worktree's and the worktree has none yet: node_modules (the root's, and those of packages inside it: workspaces)
 * for the same root lockfile; a Cargo project's target/ for the same Cargo.lock and Cargo.toml, so the first
 * `cargo test` only compiles what changed; a CMake project's configured build/ (reuse-cmake-build.ts). A folder that is itself a link in the checkout is not followed (it is not
 * the checkout's to lend).
 */
export async function reuseDependencies(checkout: string, worktree: string, files: readonly string[], signal?: AbortSignal): Promise<ReuseResult> {
  const result: ReuseResult = { reused: [], notes: [] };
  const lockfile = NODE_LOCKFILES.find((l) => files.includes(l));
  if (lockfile && (await sameKeys(checkout, worktree, [lockfile], 'node_modules', result))) {
    const packageDirs = files.filter((f) => path.posix.basename(f) === 'package.json').map((f) => path.posix.dirname(f));
    for (const dir of [...new Set(packageDirs)].sort()) {
      await reuseFolder(
        checkout,
        worktree,
        dir === '.' ? 'node_modules' : `${dir}/node_modules`,
        `${lockfile} is the same as in your checkout`,
        result,
        signal,
      );
    }
  }
  if (CARGO_KEYS.every((k) => files.includes(k)) && (await sameKeys(checkout, worktree, CARGO_KEYS, 'target', result))) {
    await reuseFolder(checkout, worktree, 'target', `${CARGO_KEYS.join(' and ')} are the same as in your checkout`, result, signal);
  }
  await reuseCMakeBuild(checkout, worktree, files, result, signal);
  return result;
}

// npm ci / npm install / pnpm install / yarn [install] / bun install, with options only.
const NODE_INSTALL = /^(?:npm\s+(?:ci|install|i)|pnpm\s+(?:install|i)|yarn(?:\s+install)?|bun\s+install)(?:\s+--?[A-Za-z][\w-]*(?:=\S+)?)*$/;

/** Whether every command of setup only installs node_modules from the lockfile (so a copied node_modules makes it redundant). */
export function onlyInstallsNodeModules(commands: readonly string[]): boolean {
  const parts = commands
    .flatMap((c) => c.split(/&&|;|\n/))
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length > 0 && parts.every((p) => NODE_INSTALL.test(p));
}
