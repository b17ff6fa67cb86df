// What git inside the sandbox reads as the repository's config: a sanitised copy bound read-only over it, without tokens, extra headers, credential helpers or ssh commands.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// The library's own quoting, so the inserted words read back as the library's do (see wrap-template.ts).
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { git } from '../git/git-command';
import { pinnedOrNull } from '../git/worktree-integrity';
import { gitCommonDirOf } from './toolchains';

/** One entry of `git config --list -z`: `section[.subsection].name` (section and name lower-cased by git) and its value; null for a bare `name` (true). */
export interface ConfigEntry {
  key: string;
  value: string | null;
}

/** The entries of `git config --list -z` output: `key\nvalue` (or a bare `key`), each ended by NUL. */
export function parseConfigList(z: string): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  for (const item of z.split('\0')) {
    if (item === '') continue;
    const nl = item.indexOf('\n');
    out.push(nl < 0 ? { key: item, value: null } : { key: item.slice(0, nl), value: item.slice(nl + 1) });
  }
  return out;
}

/** A key's parts: the section (no dot), the subsection (anything, dots included) and the name (no dot). */
function splitKey(key: string): { section: string; subsection: string | null; name: string } {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return { section: key, subsection: null, name: '' };
  return { section: key.slice(0, first), subsection: first === last ? null : key.slice(first + 1, last), name: key.slice(last + 1) };
}

/** `scheme://user:token@host/…` → `scheme://host/…`, wherever a URL sits in the text (the last `@` before the path ends the userinfo). */
export function withoutUserinfo(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#\s]*@/g, '$1');
}

/**
 * What git inside the sandbox may see of a repository's config: no `credential.*` (helpers, usernames), no
 * `http[.<url>].extraHeader` (the token a CI checkout leaves), no `*.sshCommand`, no userinfo in any URL (in values,
 * and in subsections such as `url.<base>.insteadOf`), and no `include`/`includeIf` (their contents are flattened in
 * by `--includes` and sanitised with the rest, so nothing points at the original files).
 */
export function sanitizeConfigEntries(entries: readonly ConfigEntry[]): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  for (const e of entries) {
    const { section, subsection, name } = splitKey(e.key);
    const s = section.toLowerCase();
    const n = name.toLowerCase();
    if (s === 'credential' || s === 'include' || s === 'includeif') continue;
    if (s === 'http' && n === 'extraheader') continue;
    if (n === 'sshcommand') continue;
    const sub = subsection === null ? null : withoutUserinfo(subsection);
    out.push({ key: sub === null ? e.key : `${section}.${sub}.${name}`, value: e.value === null ? null : withoutUserinfo(e.value) });
  }
  return out;
}

/** A value as git reads it back: bare when nothing in it means anything to git's parser, else quoted with escapes. */
function quoteValue(v: string): string {
  if (/^[^\s"\\;#]([^"\\;#\s]|[ ])*$/.test(v) && !/\s$/.test(v)) return v;
  const escaped = v.replace(/[\\"\n\t\b]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t' })[c] ?? '\\b');
  return `"${escaped}"`;
}

/** The entries as a config file git reads back to the same entries (in order, multi-valued keys kept). */
export function formatConfig(entries: readonly ConfigEntry[]): string {
  const lines: string[] = [];
  let header: string | null = null;
  for (const e of entries) {
    const { section, subsection, name } = splitKey(e.key);
    if (name === '') continue;
    const h = subsection === null ? `[${section}]` : `[${section} "${subsection.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
    if (h !== header) {
      lines.push(h);
      header = h;
    }
    lines.push(e.value === null ? `\t${name}` : `\t${name} = ${quoteValue(e.value)}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** A read-only bind of `source` (on the host) over `dest` (inside the sandbox). */
export interface ReadOnlyBind {
  source: string;
  dest: string;
}

/** bubblewrap's arguments that lay each sanitised copy, read-only, over its real path (added last, so they win). */
export function readOnlyBindArgs(binds: readonly ReadOnlyBind[]): string {
  return binds.map((b) => `--ro-bind ${quote([b.source])} ${quote([b.dest])}`).join(' ');
}

/** One run's sanitised view of its repository's config files. */
export interface GitConfigView {
  /** The folder holding the sanitised copies: Ratchet's to write, read-only inside the sandbox. */
  dir: string;
  /** Every config file git may read for the run's worktree, present or not: a wrap made before one appeared no longer holds. */
  watched: string[];
  /** The binds for the files present now (each over its real path). */
  binds(): ReadOnlyBind[];
  /** Writes the copies again for the files that changed since the last time (Ratchet's own git writes branches and remotes). */
  refresh(): Promise<void>;
}

/** What a file is now, to notice a change without reading it: absent, or its inode, size and times. */
function stamp(file: string): string {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return '-';
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** How many submodule git dirs are looked for under `<common>/modules` (nested ones included): the walk stays short. */
const MAX_SUBMODULES = 64;

/** The `config` of each git dir under `modules` (a folder with a `HEAD` and a `config`), nested submodules included. */
function submoduleConfigs(modules: string): string[] {
  const found: string[] = [];
  const stack = [modules];
  let visited = 0;
  while (stack.length && found.length < MAX_SUBMODULES && visited++ < MAX_SUBMODULES * 8) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    if (names.includes('HEAD') && names.includes('config')) {
      found.push(path.join(dir, 'config'));
      if (names.includes('modules')) stack.push(path.join(dir, 'modules'));
      continue;
    }
    // A submodule's name may hold slashes: its git dir sits deeper.
    for (const n of names) if (!n.startsWith('.')) stack.push(path.join(dir, n));
  }
  return found.sort();
}

/**
 * The config files git reads for `worktree` (the repository's `config`, `config.worktree` of the repository and of
 * the worktree's own entry, which git reads with `extensions.worktreeConfig`, and each submodule git dir's `config`
 * under `modules/` as found when the run starts), each sanitised into `dir`. Copies are
 * written again on refresh when their source changed; the sandbox binds them over the originals.
 */
export async function makeGitConfigView(opts: { repo: string; worktree: string; dir: string }): Promise<GitConfigView | null> {
  const common = gitCommonDirOf(opts.repo);
  if (!common) return null;
  const own = pinnedOrNull(opts.repo, opts.worktree)?.gitDir;
  const sources = [
    { file: path.join(common, 'config'), copy: 'config' },
    { file: path.join(common, 'config.worktree'), copy: 'config.worktree' },
    ...(own ? [{ file: path.join(own, 'config.worktree'), copy: 'worktree-config.worktree' }] : []),
    // Submodules' git dirs keep their own config (a remote URL with a token as often as the repository's).
    ...submoduleConfigs(path.join(common, 'modules')).map((file, i) => ({ file, copy: `module-${i}.config` })),
  ].map((s) => ({ ...s, copy: path.join(opts.dir, s.copy), stamp: '', dest: '' }));
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const readGit = git(opts.repo);

  const write = async (s: (typeof sources)[number]) => {
    const now = stamp(s.file);
    if (now === s.stamp) return;
    if (now === '-') {
      rmSync(s.copy, { force: true });
      s.dest = '';
      s.stamp = now;
      return;
    }
    // `--includes`: what an include names is read in and sanitised with the rest. A file git cannot read gives an empty copy.
    const listed = await readGit.raw(['config', '--file', s.file, '--includes', '--list', '-z']).catch(() => '');
    const tmp = `${s.copy}.${randomBytes(6).toString('hex')}`;
    writeFileSync(tmp, formatConfig(sanitizeConfigEntries(parseConfigList(listed))), { mode: 0o644 });
    renameSync(tmp, s.copy);
    s.dest = realOrSelf(s.file);
    s.stamp = now;
  };
  let queue: Promise<void> = Promise.resolve();
  const refresh = () => {
    // One at a time: two commands starting together write each copy once.
    const next = queue.then(async () => {
      for (const s of sources) await write(s);
    });
    queue = next.catch(() => undefined);
    return next;
  };
  await refresh();
  return {
    dir: opts.dir,
    watched: sources.map((s) => s.file),
    binds: () => sources.filter((s) => s.dest !== '').map((s) => ({ source: s.copy, dest: s.dest })),
    refresh,
  };
}
