// The user's PATH without what `npm run`/`npx` put in front of it for Ratchet: gates and setup find the user's and the project's tools, not Ratchet's own Node or node_modules/.bin.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trustedPath } from '../process/which';

export interface RatchetPathContext {
  /** Ratchet's package folder (the one holding its package.json). */
  ratchetRoot: string | null;
  /** The Node running Ratchet (`process.execPath`). */
  execPath: string;
  /** The environment Ratchet was started with (npm's own variables say where it ran). */
  env: NodeJS.ProcessEnv;
}

function ancestorsOf(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

/** The folder holding the package.json nearest above `file`. */
export function packageRootOf(file: string): string | null {
  for (const d of ancestorsOf(path.dirname(file))) if (existsSync(path.join(d, 'package.json'))) return d;
  return null;
}

/** Ratchet's own package folder, found from this module's file (the CLI and the app's bundles alike). */
export function ratchetPackageRoot(): string | null {
  try {
    return packageRootOf(fileURLToPath(import.meta.url));
  } catch {
    return null;
  }
}

/**
 * Whether a PATH entry is one of Ratchet's: `<dir>/node_modules/.bin` for each folder from Ratchet's package (or the
 * prefix npm ran it in) up to the root, as `npm run` and `npx` add them; npm's node-gyp-bin; npx's cache; the folder
 * of a Node that lives inside a node_modules folder (the `node` package's Node 22 that `npm run` puts first).
 */
export function isRatchetPathEntry(entry: string, ctx: RatchetPathContext): boolean {
  if (!path.isAbsolute(entry)) return false;
  const e = path.resolve(entry);
  const bases = [ctx.ratchetRoot, ctx.env.npm_config_local_prefix, ctx.env.INIT_CWD].filter((b): b is string => !!b && path.isAbsolute(b));
  const npmBins = new Set(bases.flatMap((b) => ancestorsOf(b).map((d) => path.join(d, 'node_modules', '.bin'))));
  if (npmBins.has(e)) return true;
  if (e.endsWith(`${path.sep}node-gyp-bin`) && e.includes(`${path.sep}node_modules${path.sep}`)) return true;
  if (e.split(path.sep).includes('_npx')) return true;
  const nodes = [ctx.execPath, ctx.env.npm_node_execpath].filter((n): n is string => !!n && n.split(path.sep).includes('node_modules'));
  return nodes.some((n) => path.dirname(path.resolve(n)) === e);
}

/**
 * PATH with Ratchet's own entries removed, and its relative and empty ones (the rest in the user's order): the
 * sandbox's launcher shell starts in the worktree, where `node_modules/.bin` or `.` would be the agent's folder.
 */
export function userPath(value: string | undefined, ctx: RatchetPathContext): string | undefined {
  if (value === undefined) return undefined;
  return (trustedPath(value) ?? '')
    .split(path.delimiter)
    .filter((e) => e !== '' && !isRatchetPathEntry(e, ctx))
    .join(path.delimiter);
}
