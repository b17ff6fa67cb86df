// Finding a program on PATH, the project's one way (as the shell would: executable files only, an empty entry is the current folder), and Ratchet's own programs by absolute path only.
import fs from 'node:fs';
import path from 'node:path';

/** What a missing PATH means: the shell's own default. */
export const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function pathDirs(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const raw = env.PATH ?? FALLBACK_PATH;
  // An empty PATH entry means the current directory, as in the shell.
  return raw.split(path.delimiter).map((dir) => (dir === '' ? cwd : path.resolve(cwd, dir)));
}

/** The executable `name` resolves to on `env`'s PATH (a name with a slash is taken as a path), or null. */
export function whichIn(name: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string | null {
  if (name.includes('/')) return isExecutableFile(path.resolve(cwd, name)) ? path.resolve(cwd, name) : null;
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of pathDirs(env, cwd)) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

const checkouts = new Map<string, string | null>();

/** The folder of the git checkout holding `dir` (the nearest folder above it with a `.git`), or null; looked up once per folder. */
function checkoutOf(dir: string): string | null {
  const start = path.resolve(dir);
  if (checkouts.has(start)) return checkouts.get(start) ?? null;
  let found: string | null = null;
  for (let d = start; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) {
      found = d;
      break;
    }
    if (path.dirname(d) === d) break;
  }
  checkouts.set(start, found);
  return found;
}

function inside(dir: string, folder: string): boolean {
  const rel = path.relative(folder, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * PATH as Ratchet's own processes may use it: its absolute entries only, none inside the folders `outside` (a
 * checkout) — a relative or empty entry (`node_modules/.bin`, `./bin`, `.`) means "in whatever folder the program
 * runs", which for Ratchet's git and sandbox launcher is a worktree the agent writes. Undefined stays undefined.
 */
export function trustedPath(value: string | undefined, outside: readonly string[] = []): string | undefined {
  if (value === undefined) return undefined;
  return value
    .split(path.delimiter)
    .filter((dir) => dir !== '' && path.isAbsolute(dir) && !outside.some((o) => inside(path.resolve(dir), path.resolve(o))))
    .join(path.delimiter);
}

/**
 * Makes Ratchet's own process find programs only through absolute folders, once, at start-up (the CLI's and the
 * app's entries): PATH loses its relative and empty entries, so what the sandbox library and Node's spawn look up by
 * name never depends on the folder a program starts in. (Absolute entries stay: a test or a developer may run
 * Ratchet from a checkout whose own tools are on PATH; ownProgram leaves those out for the programs Ratchet starts.)
 */
export function hardenOwnPath(env: NodeJS.ProcessEnv = process.env): void {
  env.PATH = trustedPath(env.PATH ?? FALLBACK_PATH) || FALLBACK_PATH;
  // Found now, at start-up, and kept (a few stat calls).
  if (env === process.env) for (const name of OWN_PROGRAMS) ownProgram(name);
}

/** The programs Ratchet itself starts outside the sandbox (the registry tools are the user's, found per look-up). */
const OWN_PROGRAMS = ['git', 'bwrap', 'socat', 'setpriv', 'rg', 'cp'];

/**
 * `value` (a PATH) as Ratchet's own programs may be found on it: trustedPath without the checkout Ratchet was started
 * in (`cd repo && ratchet run .`: its `node_modules/.bin`, even named by absolute path, is the repository's). A system
 * default when nothing is left.
 */
export function ownPathOf(value: string | undefined): string {
  const checkout = checkoutOf(process.cwd());
  return trustedPath(value ?? FALLBACK_PATH, checkout ? [checkout] : []) || FALLBACK_PATH;
}

const own = new Map<string, string>();

/**
 * The absolute path of a program Ratchet runs itself, outside the sandbox (git, bwrap, socat, rg, cp): found once on
 * the process's PATH as ownPathOf leaves it, and kept, so no later change of folder or PATH can swap it. The bare
 * name when it is not installed, so starting it fails as "not found".
 */
export function ownProgram(name: string): string {
  let found = own.get(name);
  if (found === undefined) {
    found = whichIn(name, { PATH: ownPathOf(process.env.PATH) }, '/') ?? name;
    // Only an absolute answer is kept: a program installed later is still found.
    if (path.isAbsolute(found)) own.set(name, found);
  }
  return found;
}
