// A CMake checkout's configured build folder lent to the worktree: copied, its paths re-pointed from the checkout to the
// worktree, and the worktree's unchanged sources given the checkout's times, so the first build compiles only what differs.
import { lstat, readFile, readdir, realpath, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeLandsWithin } from '../fs/within';
import { copyTree } from './copy-tree';
import type { ReusedDoc } from '../../../shared/worktree-env';

/** Where the folder's reuse is written: reuse-deps.ts's ReuseResult (named by shape here, so the two modules import one way only). */
interface ReuseResult {
  reused: ReusedDoc[];
  notes: string[];
}

/** The build folder `ratchet init` configures for CMake (detect-build-tools.ts's CMAKE_BUILD_DIR). */
export const CMAKE_BUILD_FOLDER = 'build';

/** Past this many tracked files, sources are not compared one by one (the build folder is still copied; make rebuilds). */
const MAX_TIMED_FILES = 20_000;
/** Files of the build folder larger than this are not searched for paths (objects, archives, executables). */
const MAX_REWRITE_BYTES = 4 * 1024 * 1024;

async function isFile(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isFile();
  } catch {
    return false;
  }
}

/** The source folder a configured build folder's CMakeCache.txt was made for, or null. */
export function cacheHome(cache: string): string | null {
  return /^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$/m.exec(cache)?.[1]?.trim() ?? null;
}

async function filesUnder(dir: string, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await filesUnder(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Every mention of `from` as a whole path (not the start of a longer name) replaced by `to`; the file's times kept. */
async function repoint(file: string, from: string, to: string): Promise<void> {
  const st = await stat(file);
  if (st.size > MAX_REWRITE_BYTES) return;
  const bytes = await readFile(file);
  const text = bytes.toString('latin1');
  if (!text.includes(from)) return;
  // Text files only: a NUL in the first 8 KB is an object or executable (paths there are debug info, not build inputs).
  if (text.slice(0, 8192).includes('\0')) return;
  const re = new RegExp(`${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g');
  await writeFile(
    file,
    Buffer.from(
      text.replace(re, () => to),
      'latin1',
    ),
  );
  // make and CMake compare times: a rewritten rule file must not look newer than what it built.
  await utimes(file, st.atime, st.mtime);
}

/** Gives each tracked file identical in both the checkout's time, so make sees the checkout's up-to-date state. */
async function alignTimes(checkout: string, worktree: string, files: readonly string[]): Promise<void> {
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < files.length) {
      const rel = files[next++]!;
      try {
        const [mine, theirs] = [path.join(worktree, rel), path.join(checkout, rel)];
        const [a, b] = await Promise.all([lstat(mine), lstat(theirs)]);
        if (!a.isFile() || !b.isFile() || a.size !== b.size) continue;
        const [x, y] = await Promise.all([readFile(mine), readFile(theirs)]);
        if (x.equals(y)) await utimes(mine, b.atime, b.mtime);
      } catch {
        // A file missing on one side is simply newer: make rebuilds what depends on it.
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, one));
}

/**
 * When the worktree is a CMake project and the checkout has `build/` configured for the checkout itself
 * (CMakeCache.txt's CMAKE_HOME_DIRECTORY), copies it into the worktree (which has none), re-points the checkout's paths
 * in its text files to the worktree, and gives the worktree's sources that are byte-for-byte the checkout's the
 * checkout's times. `cmake -S . -B build` then finds its cache, and `cmake --build build` compiles only what differs.
 */
export async function reuseCMakeBuild(checkout: string, worktree: string, files: readonly string[], result: ReuseResult, signal?: AbortSignal): Promise<void> {
  if (!files.includes('CMakeLists.txt')) return;
  const rel = CMAKE_BUILD_FOLDER;
  const src = path.join(checkout, rel);
  const dst = path.join(worktree, rel);
  if (!(await isFile(path.join(src, 'CMakeCache.txt')))) return;
  try {
    await lstat(dst);
    return;
  } catch {
    // The worktree has no build folder yet: the copy goes there.
  }
  const [home, realCheckout, realWorktree] = await Promise.all([
    readFile(path.join(src, 'CMakeCache.txt'), 'utf8').then(cacheHome),
    realpath(checkout),
    realpath(worktree),
  ]);
  if (home === null || (home !== checkout && home !== realCheckout)) {
    result.notes.push(`${rel}/ not copied from your checkout: its CMakeCache.txt was configured for ${home ?? 'another folder'}`);
    return;
  }
  const lands = writeLandsWithin(worktree, dst);
  if (!lands.ok) {
    result.notes.push(`${rel}/ not copied from your checkout: ${lands.why}`);
    return;
  }
  const t0 = performance.now();
  const method = await copyTree(src, dst, { signal });
  const target = home === realCheckout ? realWorktree : worktree;
  for (const file of await filesUnder(dst)) await repoint(file, home, target);
  if (files.length <= MAX_TIMED_FILES) await alignTimes(checkout, worktree, files);
  result.reused.push({
    path: `${rel}/`,
    because: 'CMakeCache.txt was configured for your checkout: its paths now point to the worktree',
    method,
    durationMs: Math.round(performance.now() - t0),
  });
}
