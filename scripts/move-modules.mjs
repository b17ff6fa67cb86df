// Moves modules (files or folders) with `git mv` and rewrites every relative import of them, and every mention of their
// engine path in the docs and comments, so a move is one mechanical commit. It made the split of runs/ by concern (one commit: db82e7b).
// Usage: node scripts/move-modules.mjs old=new [old=new…]   (paths from the repository root)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CODE = /\.(ts|tsx|mjs|js)$/;
const TEXT = /\.(ts|tsx|mjs|js|md|sh)$/;
const ENGINE = 'electron/engine/';

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

/** The file an import specifier names, as a repository path, or null when it names none. */
function resolveSpec(fromFile, spec, exists) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, `${base}.mjs`, `${base}/index.ts`]) if (exists(c)) return c;
  return null;
}

/** A relative specifier from `fromFile` to `target` (both repository paths), written as `like` was (with or without its extension). */
function specFor(fromFile, target, like) {
  let rel = path.posix.relative(path.posix.dirname(fromFile), target);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const hadExt = /\.(ts|tsx|js|mjs|json|txt)$/.test(like);
  if (!hadExt) rel = rel.replace(/\.(ts|tsx)$/, '').replace(/\/index$/, '');
  return rel;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Moves each [old, new] pair (repository paths) and rewrites what refers to them. */
export function moveModules(pairs) {
  const tracked = git('ls-files').split('\n').filter(Boolean);
  const trackedSet = new Set(tracked);
  const movedTo = (p) => {
    for (const [from, to] of pairs) {
      if (p === from) return to;
      if (p.startsWith(`${from}/`)) return to + p.slice(from.length);
    }
    return p;
  };
  const existsOld = (p) => trackedSet.has(p);
  // 1. Read every code file before anything moves, resolving its relative imports against the old layout.
  const rewrites = new Map();
  const IMPORT = /((?:from|import|require|vi\.mock|vi\.importActual|import\.meta\.resolve)\s*\(?\s*)(['"])(\.\.?\/[^'"\n]+)\2/g;
  for (const file of tracked.filter((f) => CODE.test(f) && !f.startsWith('node_modules/'))) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const newFile = movedTo(file);
    let changed = false;
    const out = text.replace(IMPORT, (whole, head, q, spec) => {
      const target = resolveSpec(file, spec, existsOld);
      if (!target) return whole;
      const newTarget = movedTo(target);
      if (newTarget === target && newFile === file) return whole;
      const next = specFor(newFile, newTarget, spec);
      if (next === spec) return whole;
      changed = true;
      return `${head}${q}${next}${q}`;
    });
    if (changed) rewrites.set(newFile, out);
  }
  // 2. Move.
  for (const [from, to] of pairs) {
    execFileSync('mkdir', ['-p', path.dirname(path.join(ROOT, to))]);
    git('mv', from, to);
  }
  // 3. Write the rewritten imports, then the mentions of the engine paths in docs and comments.
  for (const [file, text] of rewrites) writeFileSync(path.join(ROOT, file), text);
  const mentions = pairs
    .filter(([from, to]) => from.startsWith(ENGINE) && to.startsWith(ENGINE))
    .map(([from, to]) => [from.slice(ENGINE.length), to.slice(ENGINE.length)])
    .map(([from, to]) => [new RegExp(`(?<=^|[^\\w/.-]|${escape(ENGINE)}|(?<![\\w/.-])engine/)${escape(from)}(?![\\w-])`, 'gm'), to]);
  const after = git('ls-files')
    .split('\n')
    .filter((f) => TEXT.test(f) && !f.startsWith('node_modules/'));
  for (const file of after) {
    const p = path.join(ROOT, file);
    if (!existsSync(p) || !statSync(p).isFile()) continue;
    const text = readFileSync(p, 'utf8');
    const out = mentions.reduce((t, [re, to]) => t.replace(re, to), text);
    if (out !== text) writeFileSync(p, out);
  }
}

if (process.argv[1] === import.meta.filename) {
  const pairs = process.argv.slice(2).map((a) => a.split('='));
  if (!pairs.length || pairs.some((p) => p.length !== 2)) {
    console.error('usage: node scripts/move-modules.mjs old=new [old=new…]');
    process.exit(2);
  }
  moveModules(pairs);
}
