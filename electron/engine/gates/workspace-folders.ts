// A monorepo's package names → folders from the repository root, read from the worktree (the root package.json's
// "workspaces" for npm and yarn, pnpm-workspace.yaml's "packages"), so a location printed by a package that turbo,
// yarn, npm or nx name by its name is rewritten from the root. Bounded: literal folders and "dir/*" patterns only
// (other globs are not followed), at most MAX_PACKAGES packages, each manifest read through the one safe reader.
import fs from 'node:fs';
import path from 'node:path';
import { isWithin } from '../fs/within';
import { readWorktreeFileSync, textOf } from '../fs/worktree-file';

export const MAX_PACKAGES = 200;
const MANIFEST_CAP = 256 * 1024;

function json(root: string, file: string): unknown {
  const text = textOf(readWorktreeFileSync(root, file, { maxBytes: MANIFEST_CAP }));
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The workspace patterns the root declares ("packages/*", "apps/web"), npm/yarn's and pnpm's together. */
export function workspacePatterns(root: string): string[] {
  const out: string[] = [];
  const pkg = json(root, 'package.json') as { workspaces?: unknown } | null;
  const ws = pkg?.workspaces;
  const list = Array.isArray(ws) ? ws : ws && typeof ws === 'object' ? (ws as { packages?: unknown }).packages : null;
  if (Array.isArray(list)) for (const p of list) if (typeof p === 'string') out.push(p);
  const yaml = textOf(readWorktreeFileSync(root, 'pnpm-workspace.yaml', { maxBytes: MANIFEST_CAP }));
  let inPackages = false;
  for (const line of yaml?.split('\n') ?? []) {
    if (/^packages:\s*$/.test(line)) inPackages = true;
    else if (inPackages && /^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const m = /^\s+-\s+["']?([^"'#\s]+)/.exec(line);
      if (m) out.push(m[1]!);
    }
  }
  return out;
}

/** Package name → folder (from the root) for every package the workspace declares; empty when it is no monorepo. */
export function workspaceFolders(root: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const pattern of workspacePatterns(root)) {
    const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
    if (clean.startsWith('!') || clean.split('/').includes('..') || path.isAbsolute(clean)) continue;
    let dirs: string[] = [];
    if (!clean.includes('*')) dirs = [clean];
    else if (clean.endsWith('/*') && !clean.slice(0, -2).includes('*')) {
      const base = clean.slice(0, -2);
      const abs = path.join(root, base);
      if (!isWithin(root, abs)) continue;
      try {
        // Dirent: a link is not a directory here, so no package is read through one.
        dirs = fs
          .readdirSync(abs, { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => `${base}/${d.name}`)
          .sort();
      } catch {
        continue;
      }
    }
    for (const dir of dirs) {
      if (map.size >= MAX_PACKAGES) return map;
      const name = (json(root, `${dir}/package.json`) as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && !map.has(name)) map.set(name, dir);
    }
  }
  return map;
}
