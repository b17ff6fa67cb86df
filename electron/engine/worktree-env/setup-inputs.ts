// Setup's inputs: the files whose content decides whether setup runs again (the lockfiles and manifests, or the workflow's `setup.inputs`), hashed.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { readWorktreeFile } from '../fs/worktree-file';
import { git, type PinnedWorktree } from '../git/repo-git';

/** Used when `setup.inputs` is not set: the lockfiles and manifests of the common ecosystems, found at any depth. */
export const DEFAULT_SETUP_INPUTS: readonly string[] = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lockb',
  'bun.lock',
  'pyproject.toml',
  'uv.lock',
  'poetry.lock',
  'requirements*.txt',
  'Pipfile',
  'Pipfile.lock',
  'setup.py',
  'setup.cfg',
  'Cargo.toml',
  'Cargo.lock',
  'go.mod',
  'go.sum',
  'pom.xml',
  'build.gradle*',
  'settings.gradle*',
  'gradle.lockfile',
];

/** path (relative, `/`-separated) -> sha256 of its content. */
export type InputHashes = Record<string, string>;

const MAGIC = /[*?[\]{}!]/;

/** A basename pattern (`requirements*.txt`) as a regular expression. */
function nameRegex(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

const DEFAULT_NAMES = DEFAULT_SETUP_INPUTS.map(nameRegex);

/** Whether `file` (relative, `/`-separated) is one of setup's inputs. */
export function inputMatcher(globs: readonly string[] | undefined): (file: string) => boolean {
  if (!globs) return (file) => DEFAULT_NAMES.some((re) => re.test(path.posix.basename(file)));
  const exact = new Set(globs.filter((g) => !MAGIC.test(g)).map((g) => g.replace(/^\.\//, '')));
  const patterns = globs.filter((g) => MAGIC.test(g));
  return (file) => exact.has(file) || patterns.some((g) => path.matchesGlob(file, g));
}

/** The files of the worktree git sees (tracked, staged, or new and not ignored), relative. */
export async function worktreeFiles(p: PinnedWorktree): Promise<string[]> {
  const out = await git(p).raw(['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  return [...new Set(out.split('\0').filter(Boolean))];
}

/**
 * The hashes of setup's inputs as they are in `dir` now. A file listed but absent is left out, and so is one that is
 * not a regular file of `dir` (a link out of it, to `/dev/zero`, a FIFO: see readWorktreeFile). One past the read cap
 * is hashed by what was read and its size.
 */
export async function hashInputs(dir: string, files: readonly string[], globs: readonly string[] | undefined): Promise<InputHashes> {
  const match = inputMatcher(globs);
  const chosen = files.filter(match).sort();
  const hashes: InputHashes = {};
  await Promise.all(
    chosen.map(async (f) => {
      const r = await readWorktreeFile(dir, f);
      // Deleted from the work tree but still in the index, or not a file of the worktree: not an input.
      if (!r.ok) return;
      const h = createHash('sha256').update(r.bytes);
      if (r.truncated) h.update(`\0size:${r.size}`);
      hashes[f] = h.digest('hex');
    }),
  );
  return Object.fromEntries(
    Object.keys(hashes)
      .sort()
      .map((k) => [k, hashes[k]!]),
  );
}

/** The inputs that differ between two hashings (changed, added or removed), sorted. */
export function changedInputs(before: InputHashes, after: InputHashes): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).sort();
}
