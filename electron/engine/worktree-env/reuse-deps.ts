// Dependencies without waiting: when the user's checkout has node_modules installed from the same lockfile as the worktree's, the worktree gets a real copy of them (copy-on-write where the file system has it) instead of an install.
import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReusedDoc } from '../../../shared/worktree-env';
import { copyTree } from './copy-tree';

/** Lockfiles that pin a node_modules folder, in the order package managers prefer them. */
export const NODE_LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock'] as const;

export interface ReuseResult {
  reused: ReusedDoc[];
  /** Why a folder was not reused (said once, in the run's log). */
  notes: string[];
}

async function sha(file: string): Promise<string | null> {
  try {
    return createHash('sha256').update(await readFile(file)).digest('hex');
  } catch {
    return null;
  }
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

/**
 * Copies the checkout's node_modules folders (the root's, and those of packages inside it: workspaces) into the
 * worktree when the root lockfile is byte-for-byte the worktree's and the worktree has none yet. A node_modules that
 * is itself a link in the checkout is not followed (it is not the checkout's to lend).
 */
export async function reuseDependencies(checkout: string, worktree: string, files: readonly string[], signal?: AbortSignal): Promise<ReuseResult> {
  const result: ReuseResult = { reused: [], notes: [] };
  const lockfile = NODE_LOCKFILES.find((l) => files.includes(l));
  if (!lockfile) return result;
  const [mine, theirs] = await Promise.all([sha(path.join(worktree, lockfile)), sha(path.join(checkout, lockfile))]);
  if (!mine) return result;
  if (mine !== theirs) {
    if (theirs && (await isRealDir(path.join(checkout, 'node_modules')))) {
      result.notes.push(`node_modules not copied from your checkout: its ${lockfile} differs from the base commit's`);
    }
    return result;
  }
  const packageDirs = files.filter((f) => path.posix.basename(f) === 'package.json').map((f) => path.posix.dirname(f));
  for (const dir of [...new Set(packageDirs)].sort()) {
    const rel = dir === '.' ? 'node_modules' : `${dir}/node_modules`;
    const src = path.join(checkout, rel);
    const dst = path.join(worktree, rel);
    if (!(await isRealDir(src)) || (await exists(dst))) continue;
    const t0 = performance.now();
    const method = await copyTree(src, dst, { signal });
    result.reused.push({ path: `${rel}/`, because: `${lockfile} is the same as in your checkout`, method, durationMs: Math.round(performance.now() - t0) });
  }
  return result;
}

// npm ci / npm install / pnpm install / yarn [install] / bun install, with options only.
const NODE_INSTALL = /^(?:npm\s+(?:ci|install|i)|pnpm\s+(?:install|i)|yarn(?:\s+install)?|bun\s+install)(?:\s+--?[A-Za-z][\w-]*(?:=\S+)?)*$/;

/** Whether every command of setup only installs node_modules from the lockfile (so a copied node_modules makes it redundant). */
export function onlyInstallsNodeModules(commands: readonly string[]): boolean {
  const parts = commands.flatMap((c) => c.split(/&&|;|\n/)).map((p) => p.trim()).filter(Boolean);
  return parts.length > 0 && parts.every((p) => NODE_INSTALL.test(p));
}
